"""The scorer's REST API (the dashboard's data), read with its access token.

    from mmgr_client import ScorerApi
    api = ScorerApi("http://scorer:8080")      # the token from MMGR_WEB_TOKEN, or token="..."
    api.runs()
    api.leaderboard(run="run-7", task="*")

A scorer bound beyond loopback requires the token (``bin/mmgr run --web-token``); it goes out as
``Authorization: Bearer <token>`` and never into an error message or a URL.
"""
from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Optional

from .errors import MmgrError, ScorerUnreachable, WebUnauthorized


class ScorerApi:
    """GETs of the REST API under ``url`` (the dashboard's address, e.g. ``http://127.0.0.1:8080``)."""

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self._token = token if token is not None else (os.environ.get("MMGR_WEB_TOKEN") or None)
        self.timeout = timeout

    def get(self, path: str, **params: Any) -> Any:
        """The JSON answer of ``path`` (e.g. ``/api/runs``) with the parameters that are not None."""
        query = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
        return json.loads(self._open(path + ("?" + query if query else "")).decode("utf-8"))

    def runs(self) -> Any:
        return self.get("/api/runs")

    def leaderboard(self, run: Optional[str] = None, checkpoint: Optional[str] = None, task: Optional[str] = None) -> Any:
        return self.get("/api/leaderboard", run=run, checkpoint=checkpoint, task=task)

    def sample(self, run: str, checkpoint: str, task: str, sample: str, seed: int = 0) -> Any:
        return self.get("/api/sample", run=run, checkpoint=checkpoint, task=task, sample=sample, seed=seed)

    def artifact(self, href: str) -> bytes:
        """The bytes behind an artifact's ``href`` in :meth:`sample`'s answer."""
        return self._open(href)

    def _open(self, path_and_query: str) -> bytes:
        request = urllib.request.Request(self.url + path_and_query)
        if self._token:
            request.add_header("Authorization", "Bearer " + self._token)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as r:
                return r.read()
        except urllib.error.HTTPError as e:
            if e.code == 401:
                raise WebUnauthorized("the scorer at %s requires its access token: pass token= or set MMGR_WEB_TOKEN%s"
                                      % (self.url, " (the one given was refused)" if self._token else "")) from None
            raise MmgrError("%s%s answered HTTP %d: %s" % (self.url, path_and_query.split("?")[0], e.code,
                                                            _error_text(e))) from None
        except (urllib.error.URLError, OSError) as e:
            raise ScorerUnreachable("the scorer's web server at %s does not answer (%s)"
                                    % (self.url, getattr(e, "reason", e))) from None


def _error_text(e: urllib.error.HTTPError) -> str:
    try:
        return json.loads(e.read().decode("utf-8")).get("error", "")
    except (ValueError, AttributeError, OSError):
        return ""
