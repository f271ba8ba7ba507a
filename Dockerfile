# The bot in a container: one image for every shard process (compose.yaml runs two of it).
#
#   docker build -t stoneage-bot .
#   docker run --env-file .env -v stoneage-data:/app/data stoneage-bot          # one process, SQLite in the volume
#   docker run --env-file .env -e DATABASE_URL=postgresql://... stoneage-bot    # a shard process on PostgreSQL
#
# A volume made before the rename (ugah-data) keeps working as it is: -v ugah-data:/app/data (the bot
# renames its data/ugah.db to data/stoneage.db on the first start; the user's uid is unchanged).
#
# Settings come from the environment exactly as for ./run bot (README, "Settings"); the image holds
# no .env and no token (.dockerignore keeps them out of the build context).
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# The dependencies first, read from pyproject.toml's [project] dependencies (no test extras), in a
# layer of their own: editing the code does not reinstall them.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# Then the project itself, installed in place (editable, --no-deps: they are above): the bot reads
# data files from beside its code at run time (engine/games/*.json, bot/locales/*/messages.po,
# render/fonts), so the source tree in /app is what runs.
COPY . .
RUN pip install --no-deps -e . \
    && python -m compileall -q bot engine render

# A user of its own, owning only data/ (the SQLite file and its lock when DATABASE_URL is unset);
# the code stays root's and read-only to the bot. Its uid stays 10001 (the owner of existing volumes).
RUN useradd --system --uid 10001 --user-group --home-dir /app --no-create-home --shell /usr/sbin/nologin stoneage \
    && mkdir -p /app/data \
    && chown stoneage:stoneage /app/data
USER stoneage

# docker stop sends SIGINT: discord.py then closes the gateway connection and the database cleanly.
# SIGTERM (what Kubernetes and a plain kill send) closes the bot the same way (GameBot.stops_on_sigterm);
# either way no move is lost, every move is its own transaction.
STOPSIGNAL SIGINT

# No HEALTHCHECK: the bot serves no port and writes no heartbeat, so the only check available is
# "the process runs", which Docker already knows (the container stops with it, and the restart
# policy starts it again). Discord reconnects are handled inside discord.py.
CMD ["python", "-m", "bot"]
