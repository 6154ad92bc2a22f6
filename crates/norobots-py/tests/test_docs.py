"""The documentation is what the package does: every docstring's examples
run, the READMEs' Python examples run, every public item has a
docstring (the functions and ``Robots``' methods an example), and the
type stubs name exactly what the extension module has; ``py.typed`` and
the stubs are installed, and the module is built for the stable ABI."""

import ast
import doctest
import inspect
import re
from pathlib import Path

import norobots
import norobots._norobots as native
import norobots.robotparser
import norobots.scrapy

HERE = Path(__file__).resolve().parents[1]
REPO = HERE.parents[1]
PACKAGE = Path(norobots.__file__).parent


def documented():
    """(name, object) for the modules and every public item in them."""
    for module in (norobots, norobots.robotparser, norobots.scrapy):
        yield module.__name__, module
    classes = [getattr(norobots, name) for name in norobots.__all__
               if inspect.isclass(getattr(norobots, name))]
    classes += [norobots.robotparser.RobotFileParser, norobots.scrapy.RobotParser]
    for name in norobots.__all__:
        value = getattr(norobots, name)
        if callable(value) and not inspect.isclass(value):
            yield f"norobots.{name}", value
    for cls in classes:
        yield cls.__qualname__, cls
        for member, value in vars(cls).items():
            if not member.startswith("_"):
                yield f"{cls.__qualname__}.{member}", value


def test_every_example_in_every_docstring_runs():
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = {"norobots": norobots, "Robots": norobots.Robots,
             "RobotFileParser": norobots.robotparser.RobotFileParser}
    examples = 0
    for name, value in documented():
        doc = inspect.getdoc(value) if not isinstance(value, str) else None
        if not doc:
            continue
        test = parser.get_doctest(doc, dict(globs), name, None, 0)
        examples += len(test.examples)
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0
    assert examples == results.attempted >= 40, examples


def test_every_public_item_has_a_docstring_and_the_api_an_example():
    missing, without_example = [], []
    for name, value in documented():
        if isinstance(value, (str, tuple, type(None))):
            continue
        doc = inspect.getdoc(value)
        if not doc:
            missing.append(name)
        elif (name.startswith("norobots.") or name.startswith("Robots.")) and \
                ">>>" not in doc and not name.startswith("norobots.InternalError"):
            without_example.append(name)
    assert missing == []
    assert without_example == []


def python_blocks(markdown):
    return re.findall(r"```python\n(.*?)```", markdown, re.S)


def test_the_readme_examples_run():
    root = (REPO / "README.md").read_text()
    section = root.split("## Python", 1)[1].split("\n## ", 1)[0]
    blocks = python_blocks(section)
    assert len(blocks) == 1
    # The root README promises a five-line example.
    assert len([line for line in blocks[0].splitlines() if line.strip()]) == 5
    assert "pip install ./crates/norobots-py" in section
    blocks += python_blocks((HERE / "README.md").read_text())
    assert len(blocks) >= 4
    for block in blocks:
        exec(compile(block, "README", "exec"), {})


def stub_names(path):
    """The top-level names of a stub file, and each class's members."""
    tree = ast.parse(path.read_text())
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            members[node.name] = {item.name for item in node.body
                                  if isinstance(item, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names, members


def test_the_stubs_name_exactly_what_the_module_has():
    stub = PACKAGE / "_norobots.pyi"
    assert stub.is_file() and (PACKAGE / "py.typed").is_file()
    names, members = stub_names(stub)
    module = {name for name in dir(native)
              if not name.startswith("__") or name == "__version__"}
    assert names == module
    assert set(norobots.__all__) == names - {"_panic_for_tests"}
    for cls, stubbed in members.items():
        runtime = {name for name in dir(getattr(native, cls))
                   if not name.startswith("_")} | ({"__init__"} if "__init__" in stubbed else set())
        if issubclass(getattr(native, cls), BaseException):
            continue
        assert stubbed == runtime, cls


def test_the_extension_is_built_for_the_stable_abi():
    built = [path.name for path in PACKAGE.iterdir() if path.name.startswith("_norobots.")
             and path.suffix in (".so", ".pyd")]
    assert built and all(".abi3." in name or name.endswith(".pyd") for name in built), built
