"""Builds the extension pecheck._pecheck with the project's CMake (see pyproject.toml).

PECHECK_BUILD_DIR reuses a configured build directory; otherwise one is made
under setuptools' temporary directory, with the libraries and the module only.
"""

import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE_DIR = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.environ.get("PECHECK_BUILD_DIR")
        if not build_dir:  # a given build directory keeps its own configuration
            build_dir = os.path.join(os.path.abspath(self.build_temp), "cmake")
            subprocess.run(["cmake", "-S", SOURCE_DIR, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                            "-DPECHECK_BUILD_TESTS=OFF", "-DPECHECK_BUILD_TOOLS=OFF", "-DPECHECK_BUILD_BENCH=OFF",
                            "-DPECHECK_BUILD_PYTHON=ON", f"-DPython_EXECUTABLE={sys.executable}"], check=True)
        jobs = os.environ.get("PECHECK_JOBS", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", build_dir, "--target", "_pecheck", "--parallel", jobs], check=True)
        package = os.path.join(build_dir, "python", "pecheck")
        built = [f for f in os.listdir(package) if f.startswith("_pecheck") and f.endswith(".so")]
        if len(built) != 1:
            raise RuntimeError(f"{package}: expected one built _pecheck extension, found {built}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(package, built[0]), target)


setup(ext_modules=[Extension("pecheck._pecheck", sources=[])], cmdclass={"build_ext": CMakeBuild})
