"""Builds mmgr-client with the repository's schemas/*.avsc inside the package (metadata: pyproject.toml)."""
import os
import pathlib
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent


class BuildWithSchemas(build_py):
    """Copies the schemas in at build time, so an installed client carries exactly the repository's."""

    def run(self):
        super().run()
        source = pathlib.Path(os.environ.get("MMGR_SCHEMAS_DIR") or HERE.parent.parent / "schemas")
        files = sorted(source.glob("*.avsc"))
        if not files:
            raise SystemExit("no schemas in %s: build the client from the repository (pip install ./clients/python) "
                             "or set MMGR_SCHEMAS_DIR to its schemas/ directory" % source)
        target = pathlib.Path(self.build_lib) / "mmgr_client" / "schemas"
        target.mkdir(parents=True, exist_ok=True)
        for f in files:
            shutil.copyfile(f, target / f.name)


setup(cmdclass={"build_py": BuildWithSchemas})
