# groundwire worker image: `docker build -t groundwire:local .`
# The same image runs every role: `worker` (default), `topics create`, `report`, `check`.
FROM python:3.11-slim-bookworm AS build
WORKDIR /src
# pyproject.toml: metadata and package data; setup.py: finds the packages below the four
# top-level folders; README.md: the long description pyproject names.
COPY pyproject.toml setup.py README.md ./
COPY groundwire groundwire
COPY guards guards
COPY topics topics
COPY streams streams
COPY metrics metrics
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim-bookworm
# git: commit-citation verification shells out to `git cat-file` (arg lists, no shell).
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --create-home --home-dir /app groundwire
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER 10001
WORKDIR /app
# Only names groundwire reads: an unknown GROUNDWIRE_* variable stops every command.
ENV PYTHONUNBUFFERED=1 \
    GROUNDWIRE_METRICS_PORT=9464
EXPOSE 9464
# /healthz answers 503 while a stage is stalled or cannot reach Kafka (see docs/operations.md).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=4 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('GROUNDWIRE_METRICS_PORT', '9464'), timeout=4)"]
ENTRYPOINT ["groundwire"]
CMD ["worker"]
