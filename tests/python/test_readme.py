"""The README's Python example runs as printed (README.md, section "Python"), from a scratch
directory holding the bundled font, and writes a WOFF2 instance that fontTools reads as a static
font at the location it names."""

import contextlib
import io
import os
import re

from fontTools.ttLib import TTFont

from conftest import KARLA, ROOT


def readme_example():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"\n((?:    .*\n)+)", section).group(1)
    return "\n".join(line[4:] for line in block.splitlines()) + "\n"


def test_readme_python_example(tmp_path):
    os.makedirs(tmp_path / "fonts")
    os.symlink(KARLA, tmp_path / "fonts" / "Karla-VF.ttf")
    code = readme_example()
    assert "otvar.Font(" in code
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert re.match(r"\{'wght': -?\d+\}", out.getvalue().strip())
    woff2 = tmp_path / "Karla-650.woff2"
    font = TTFont(str(woff2))
    assert font.flavor == "woff2"
    assert "fvar" not in font and "gvar" not in font
