"""Read-time faithfulness in the runtime (docs/spec.md §Read-time faithfulness): the
scorer assembled from settings (`factory.py`), the HTTP endpoint `POST /v1/answers:score`
of the review service (`api.py`) and the transactional writer behind it (`recorder.py`).
The Kafka stage is `streams/stages/answers.py`; the scoring itself is
`groundwire.guards.faithfulness`."""
