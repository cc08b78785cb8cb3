"""The human review queue: the home of every claim the pipeline flags (tier flag_review).

Pieces, one module each (docs/architecture.md §Review queue): `config` (settings),
`keys` and `lua` + `store` (the queue in Redis), `rules` (who may act, no I/O), `feed`
(the `review` topic into the queue), `relay` (decisions from the Redis outbox to Kafka,
exactly once), `auth` (bearer JWTs and browser sessions), `api` (HTTP and the web page),
`service` (wiring). Importing this package imports none of them, so the settings can
name the configuration without pulling in a web framework.
"""
