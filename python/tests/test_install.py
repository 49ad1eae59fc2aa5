#!/usr/bin/python3
"""test_install.py DMASIM SOURCE_DIR BUILD_DIR VERSION - the dmasim Python
package as users get it: pip installs python/ (pyproject.toml) into a fresh
venv offline; the installed package finds dmasim on PATH; cmake --install
puts the package where it finds PREFIX/bin/dmasim beside itself;
docs/python.md's example runs from both (scripts/check-doc-examples with
DOC_PYTHON); errors name the interpreter and a fix that works for it.

Exit status 77 (ctest: skipped) when the venv module or pip is missing,
naming which."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

DMASIM, SOURCE, BUILD = (os.path.abspath(a) for a in sys.argv[1:4])
VERSION = sys.argv[4]


def sh(args, **kw):
    env = kw.pop("env", None)
    done = subprocess.run(args, capture_output=True, text=True, env=env, **kw)
    return done


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("DMASIM_EXE", "PYTHONPATH")}
    env.update(SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1", PYTHONDONTWRITEBYTECODE="1", **extra)
    return env


def missing_tools():
    if sh(["/usr/bin/python3", "-c", "import venv"]).returncode != 0:
        return "the venv module is missing for /usr/bin/python3 (Debian: python3-venv)"
    if sh(["/usr/bin/python3", "-m", "pip", "--version"]).returncode != 0:
        return "pip is missing for /usr/bin/python3 (Debian: python3-pip)"
    if sh(["/usr/bin/python3", "-c", "import setuptools"]).returncode != 0:
        return "setuptools is missing for /usr/bin/python3 (Debian: python3-setuptools)"
    return None


class Installed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="dmasim-py-install-")
        # A copy: pip builds in the tree it is given (build/, egg-info).
        src = os.path.join(cls.tmp, "src")
        shutil.copytree(os.path.join(SOURCE, "python"), src,
                        ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
        cls.venv = os.path.join(cls.tmp, "venv")
        # Debian's pip and pandas, seen through --system-site-packages.
        done = sh(["/usr/bin/python3", "-m", "venv", "--system-site-packages", "--without-pip",
                   cls.venv])
        assert done.returncode == 0, done.stderr
        cls.python = os.path.join(cls.venv, "bin", "python")
        done = sh([cls.python, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                   "--no-deps", "--quiet", src], env=clean_env())
        assert done.returncode == 0, done.stdout + done.stderr
        # dmasim on PATH, as an installed one would be.
        cls.bin = os.path.join(cls.tmp, "bin")
        os.makedirs(cls.bin)
        os.symlink(DMASIM, os.path.join(cls.bin, "dmasim"))
        cls.path = cls.bin + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def py(self, code, python=None, **env):
        return sh([python or self.python, "-c", code], cwd=self.tmp,
                  env=clean_env(**dict({"PATH": self.path}, **env)))

    def test_the_venv_imports_its_own_copy_and_finds_dmasim_on_path(self):
        done = self.py("import dmasim; print(dmasim.__file__); print(dmasim.binary()); "
                       "print(dmasim.version())")
        self.assertEqual(done.returncode, 0, done.stderr)
        where, exe, version = done.stdout.split()
        self.assertTrue(where.startswith(self.venv), where)
        self.assertEqual(exe, os.path.join(self.bin, "dmasim"))
        self.assertEqual(version, VERSION)

    def test_the_package_version_is_the_simulators(self):
        done = self.py("from importlib.metadata import version; print(version('dmasim'))")
        self.assertEqual(done.stdout.strip(), VERSION, done.stderr)

    def test_no_dmasim_anywhere_names_the_interpreter_and_the_fixes(self):
        done = self.py("import dmasim\ntry:\n dmasim.binary()\nexcept dmasim.DmasimError as e:\n"
                       " print(e)", PATH="/usr/bin:/bin")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(self.python, done.stdout)
        self.assertIn("DMASIM_EXE", done.stdout)
        self.assertIn("PATH", done.stdout)

    def test_missing_pandas_in_a_venv_advises_what_works_there(self):
        # A venv that does not see Debian's packages: apt-get would not help.
        bare = os.path.join(self.tmp, "bare")
        self.assertEqual(sh(["/usr/bin/python3", "-m", "venv", "--without-pip", bare]).returncode, 0)
        site = sh([self.python, "-c", "import dmasim, os; "
                   "print(os.path.dirname(os.path.dirname(dmasim.__file__)))"]).stdout.strip()
        done = self.py("import os, dmasim\ntry:\n dmasim.load(os.devnull)\n"
                       "except dmasim.DmasimError as e:\n print(e)",
                       python=os.path.join(bare, "bin", "python"), PYTHONPATH=site)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(os.path.join(bare, "bin", "python"), done.stdout)
        self.assertIn("-m pip install pandas", done.stdout)
        self.assertNotIn("apt-get", done.stdout)

    def test_the_python_doc_example_runs_from_the_venv(self):
        done = sh(["/usr/bin/python3", os.path.join(SOURCE, "scripts", "check-doc-examples"),
                   DMASIM, SOURCE, "docs/python.md"],
                  env=clean_env(PATH=self.path, DOC_PYTHON=self.python))
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("0 failed", done.stdout)

    def cmake_install(self):
        """(prefix, the folder holding the installed package) of one
        cmake --install, made on first use."""
        cls = type(self)
        if not hasattr(cls, "installed"):
            prefix = os.path.join(self.tmp, "prefix")
            done = sh(["cmake", "--install", BUILD, "--prefix", prefix])
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            sites = [root for root, dirs, _ in os.walk(os.path.join(prefix, "lib"))
                     if "dmasim" in dirs
                     and os.path.exists(os.path.join(root, "dmasim", "__init__.py"))]
            self.assertEqual(len(sites), 1, sites)
            cls.installed = (prefix, sites[0])
        return cls.installed

    def test_cmake_install_puts_the_package_beside_its_binary(self):
        prefix, site = self.cmake_install()
        done = self.py("import dmasim; print(dmasim.binary())", python="/usr/bin/python3",
                       PYTHONPATH=site, PATH="/usr/bin:/bin")
        self.assertEqual(done.stdout.strip(), os.path.join(prefix, "bin", "dmasim"), done.stderr)

    def test_the_python_doc_example_runs_from_the_cmake_install_tree(self):
        # No dmasim on PATH: the package must find PREFIX/bin/dmasim itself.
        prefix, site = self.cmake_install()
        done = sh(["/usr/bin/python3", os.path.join(SOURCE, "scripts", "check-doc-examples"),
                   DMASIM, SOURCE, "docs/python.md"],
                  env=clean_env(PATH="/usr/bin:/bin", PYTHONPATH=site,
                                DOC_PYTHON="/usr/bin/python3"))
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("0 failed", done.stdout)


if __name__ == "__main__":
    why = missing_tools()
    if why:
        print(f"skipped: {why}")
        sys.exit(77)
    unittest.main(argv=sys.argv[:1], verbosity=2)
