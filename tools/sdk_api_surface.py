#!/usr/bin/env python3
"""The SDK API surface gate: which members of the platform SDK's public surface platformpp lacks.

Reads the reference surface (sdk-api.tsv: one row per public member, see the reference README) and
checks, per area:

- C++: the public headers under cpp/include/platformpp/. A method or static function counts when a
  declaration of that name in that class has the reference's return type and parameter types (names
  of parameters, `const&` versus by value, `platformpp::`/`Client::` qualification and callback
  typedef names do not matter: a callback type is compared by the signature of its std::function).
  Enum values count with their numeric value; typedefs by name and signature; constructors by
  parameter types; a class row (`handle-members`) by `nullobj`, `operator bool` and copyability.
- Python: the extension module (`--python module`, imports platformpp._platformpp) or its stub
  (`--python stub`, parses stubs/platformpp/_platformpp.pyi). Names follow docs/names.md: snake_case of
  the C++ name, getters and `Set<Field>` setters as (read-write) properties or methods, enum values as
  members (a keyword takes a trailing `_`), nested enums as nested classes, namespace-level functions
  at module level. Typedefs (callback types) have no Python counterpart: any callable fits.

A name holding `Platform` may drop the word (reference README: `AcceptFriendRequest`).

Usage: tools/sdk_api_surface.py [--python stub|module|none] [--area AREA ...] [--json]
Exit status 0 when nothing is missing in the areas asked for, 1 otherwise.
"""
from __future__ import annotations

import argparse
import ast
import csv
import json
import keyword
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TSV = Path("/work/shared/reference/sdk-api.tsv")
TSV_IN_REPO = ROOT / "tests" / "data" / "sdk-api.tsv"
HEADERS = ROOT / "cpp" / "include" / "platformpp"
STUB = ROOT / "stubs" / "platformpp" / "_platformpp.pyi"
NAMESPACE_CLASS = "platformpp"


@dataclass(frozen=True)
class Row:
    area: str
    cls: str
    member: str
    kind: str
    signature: str
    since: str

    def label(self) -> str:
        if self.kind == "class":
            return f"class {self.cls}"
        if self.cls == NAMESPACE_CLASS:
            return self.signature
        return f"{self.cls}::{self.member}" + (f"  [{self.signature}]" if self.kind != "enum-value" else
                                               f" = {self.signature.split('=')[-1].strip()}")


def read_reference(path: Path) -> list[Row]:
    with path.open(newline="") as f:
        rows = [Row(r["area"], r["class"], r["member"], r["kind"], r["signature"], r["since"])
                for r in csv.DictReader(f, delimiter="\t")]
    # The reference repeats some namespace-level rows; one check each is enough.
    unique: dict[tuple[str, str, str, str], Row] = {}
    for row in rows:
        unique.setdefault((row.area, row.cls, row.kind, row.signature), row)
    return list(unique.values())


def name_variants(name: str) -> list[str]:
    """The reference name and, when it holds the brand's stand-in, the name without it."""
    out = [name]
    if "Platform" in name and name != "Platform":
        out.append(name.replace("Platform", ""))
    return out


# ---------------------------------------------------------------- C++ headers

def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def _match_brace(text: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced braces")


def _flatten(body: str) -> str:
    """A class body with nested braces (inline bodies, nested types) replaced by ';'."""
    out, depth = [], 0
    for ch in body:
        if ch == "{":
            if depth == 0:
                out.append(";")
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _split_params(params: str) -> list[str]:
    parts, depth, cur = [], 0, []
    for ch in params:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip() and p.strip() != "void"]


_PARAM_NAME = re.compile(r"^(.*?[\w>&*\]])\s+(\w+)\s*(=.*)?$", re.S)


def _param_type(param: str) -> str:
    m = _PARAM_NAME.match(param.strip())
    text = m.group(1) if m else param
    return text


@dataclass
class CppClass:
    name: str  # qualified: "Client", "Client::Status"
    decls: list[tuple[str, str, list[str]]] = field(default_factory=list)  # (name, return, params)
    typedefs: dict[str, str] = field(default_factory=dict)
    enum_values: dict[str, int] = field(default_factory=dict)
    body: str = ""
    is_enum: bool = False


class CppSurface:
    def __init__(self, headers: Path):
        self.classes: dict[str, CppClass] = {}
        self.free: list[tuple[str, str, list[str]]] = []
        for header in sorted(headers.glob("*.hpp")):
            self._parse(_strip_comments(header.read_text()))
        self.function_types = {}
        for cls in self.classes.values():
            for name, sig in cls.typedefs.items():
                self.function_types[f"{cls.name}::{name}"] = sig  # qualified: classes reuse names
                self.function_types.setdefault(name, sig)

    def _parse(self, text: str) -> None:
        # Namespace blocks other than `platformpp` itself (detail, versioning, authorize) hold no
        # reference member; their text still counts as free declarations only when in platformpp.
        top = text
        self._parse_scope(top, "", is_namespace=True)

    def _parse_scope(self, text: str, prefix: str, is_namespace: bool) -> None:
        pattern = re.compile(r"\b(namespace\s+([\w:]+)|enum\s+class\s+(\w+)[^{;]*|(?:class|struct)\s+(\w+)"
                             r"(?:\s+final)?(?:\s*:[^{;]*)?)\s*\{")
        pos, outside = 0, []
        while True:
            m = pattern.search(text, pos)
            if not m:
                outside.append(text[pos:])
                break
            outside.append(text[pos:m.start()])
            open_at = m.end() - 1
            close_at = _match_brace(text, open_at)
            body = text[open_at + 1:close_at]
            if m.group(2):  # namespace
                ns = m.group(2)
                if ns == "platformpp":
                    self._parse_scope(body, "", is_namespace=True)
            elif m.group(3):  # enum class
                name = prefix + m.group(3)
                cls = self.classes.setdefault(name, CppClass(name))
                cls.is_enum = True
                value = -1
                for item in body.split(","):
                    item = item.strip()
                    if not item:
                        continue
                    ident, _, expr = item.partition("=")
                    value = int(expr.strip(), 0) if expr.strip() else value + 1
                    cls.enum_values[ident.strip()] = value
            else:  # class / struct
                name = prefix + m.group(4)
                cls = self.classes.setdefault(name, CppClass(name))
                cls.body += body
                self._parse_members(cls, body)
                self._parse_scope(body, name + "::", is_namespace=False)
            pos = close_at + 1
        if is_namespace and not prefix:
            for stmt in "".join(outside).split(";"):
                decl = _parse_decl(stmt)
                if decl:
                    self.free.append(decl)

    def _parse_members(self, cls: CppClass, body: str) -> None:
        flat = _flatten(body)
        for stmt in flat.split(";"):
            stmt = re.sub(r"\b(public|private|protected)\s*:", " ", stmt).strip()
            using = re.match(r"using\s+(\w+)\s*=\s*(.*)$", stmt, re.S)
            if using:
                cls.typedefs[using.group(1)] = using.group(2).strip()
                continue
            decl = _parse_decl(stmt)
            if decl:
                cls.decls.append(decl)


_DECL = re.compile(r"^(?P<pre>.*?)\b(?P<name>~?\w+)\s*\((?P<params>.*)\)\s*(?P<post>[\w\s&]*?)\s*(=\s*\w+)?\s*$",
                   re.S)


def _parse_decl(stmt: str) -> tuple[str, str, list[str]] | None:
    stmt = re.sub(r"\[\[[^\]]*\]\]", " ", stmt)
    stmt = re.sub(r"\s+", " ", stmt).strip()
    if not stmt or stmt.startswith(("friend ", "using ", "typedef ", "return ")) or "(" not in stmt:
        return None
    m = _DECL.match(stmt)
    if not m:
        return None
    ret = re.sub(r"\b(static|virtual|inline|explicit|constexpr|extern)\b", " ", m.group("pre")).strip()
    return m.group("name"), ret, _split_params(m.group("params"))


def normalize_type(text: str, function_types: dict[str, str], context: str = "", depth: int = 0) -> str:
    """A comparable spelling of a C++ type: no qualification, references and const dropped,
    callback typedefs replaced by their std::function signature."""
    t = re.sub(r"\s+", " ", text).strip()
    t = re.sub(r"\bplatformpp::", "", t)
    t = re.sub(r"\bconst\b", " ", t)
    t = t.replace("&&", " ").replace("&", " ")
    t = re.sub(r"\s+", " ", t).strip()
    t = re.sub(r"\s*([<>,()*])\s*", r"\1", t)
    # A callback typedef named inside Client (or bare) stands for its signature.
    bare = re.sub(r"^\w+::", "", t)
    for key in (t, f"{context}::{bare}", bare):
        if key in function_types and depth < 4:  # a typedef may name another typedef
            return normalize_type(function_types[key], function_types, context, depth + 1)
    t = re.sub(r"\bClient::(?=(Status|Error|Thread)\b)", "Client::", t)
    if context and re.fullmatch(r"(Status|Error|Thread|AvatarType)", t) and context in ("Client", "UserHandle"):
        t = f"{context}::{t}"
    m = re.fullmatch(r"std::function<(.*)>", t)
    if m:
        sig = re.fullmatch(r"(\w+)\((.*)\)", m.group(1))
        if sig:
            params = [normalize_type(_param_type(p), function_types, context) for p in _split_params(sig.group(2))]
            t = f"std::function<{sig.group(1)}({','.join(params)})>"
    return t


def _ref_decl(signature: str) -> tuple[str, str, list[str]]:
    decl = _parse_decl(signature)
    assert decl is not None, signature
    return decl


def check_cpp(row: Row, surface: CppSurface, ref_typedefs: dict[str, str]) -> str | None:
    """None when platformpp has the member; else why not."""
    ours_fn = surface.function_types
    # A typedef the reference rows at hand do not define reads as ours of that name.
    ref_typedefs = {**ours_fn, **ref_typedefs}

    def same_decl(ours: tuple[str, str, list[str]], ref: tuple[str, str, list[str]], context: str) -> bool:
        _, oret, oparams = ours
        _, rret, rparams = ref
        if normalize_type(oret, ours_fn, context) != normalize_type(rret, ref_typedefs, context):
            return False
        if len(oparams) != len(rparams):
            return False
        return all(normalize_type(_param_type(o), ours_fn, context) == normalize_type(_param_type(r), ref_typedefs,
                                                                                      context)
                   for o, r in zip(oparams, rparams))

    if row.kind == "enum-value":
        cls = surface.classes.get(row.cls)
        if cls is None or not cls.is_enum:
            return f"no enum {row.cls}"
        want = int(row.signature.split("=")[1].strip())
        if row.member not in cls.enum_values:
            return f"no value {row.member}"
        if cls.enum_values[row.member] != want:
            return f"{row.member} is {cls.enum_values[row.member]}, the reference has {want}"
        return None

    if row.cls == NAMESPACE_CLASS:
        ref = _ref_decl(row.signature)
        for decl in surface.free:
            if decl[0] == ref[0] and same_decl(decl, ref, ""):
                return None
        return "not declared at namespace level with this signature"

    cls = surface.classes.get(row.cls)
    if cls is None:
        return f"no class {row.cls}"
    if row.kind == "class":
        body = re.sub(r"\s+", " ", cls.body)
        missing = []
        if f"static const {row.cls} nullobj" not in body:
            missing.append("nullobj")
        if "explicit operator bool" not in body:
            missing.append("explicit operator bool")
        copy_deleted = "copy ctor/assign deleted" in row.signature
        has_deleted_copy = re.search(rf"{row.cls}\(const {row.cls}&\)\s*=\s*delete", body) is not None
        if copy_deleted != has_deleted_copy:
            missing.append("copy " + ("deleted" if copy_deleted else "allowed"))
        return ", ".join(missing) or None
    if row.kind == "typedef":
        m = re.match(r"using (\w+) = (.*)$", row.signature)
        assert m, row.signature
        ours = cls.typedefs.get(m.group(1))
        if ours is None:
            return "no typedef"
        if normalize_type(ours, ours_fn, row.cls) != normalize_type(m.group(2), ref_typedefs, row.cls):
            return f"typedef differs: ours {ours}"
        return None
    ref = _ref_decl(row.signature)
    candidates = [d for d in cls.decls if d[0] in name_variants(ref[0])]
    if row.kind == "ctor":
        candidates = [(d[0], "", d[2]) for d in candidates]
        ref = (ref[0], "", ref[2])
    if not candidates:
        return "not declared"
    for decl in candidates:
        if same_decl(decl, ref, row.cls):
            return None
    shown = "; ".join(f"{d[1]} {d[0]}({', '.join(d[2])})".strip() for d in candidates)
    return f"signature differs: ours {shown}"


# ---------------------------------------------------------------- Python

def snake(name: str) -> str:
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    s = re.sub(r"([a-z\d])([A-Z])", r"\1_\2", s)
    return s.lower()


@dataclass
class PyClass:
    attrs: set[str] = field(default_factory=set)
    writable: set[str] = field(default_factory=set)
    init_params: list[list[str]] = field(default_factory=list)  # annotation text per overload
    enum_members: set[str] = field(default_factory=set)


@dataclass
class PySurface:
    classes: dict[str, PyClass]
    functions: dict[str, list[str]]  # name -> annotations of the first parameter, per overload


def python_from_stub(path: Path) -> PySurface:
    tree = ast.parse(path.read_text())
    classes: dict[str, PyClass] = {}
    functions: dict[str, list[str]] = {}

    def visit_class(node: ast.ClassDef, prefix: str) -> None:
        qual = prefix + node.name
        cls = classes.setdefault(qual, PyClass())
        is_enum = any(ast.unparse(b).endswith(("Enum", "Flag")) for b in node.bases)
        for item in node.body:
            if isinstance(item, ast.ClassDef):
                visit_class(item, qual + ".")
            elif isinstance(item, ast.FunctionDef):
                cls.attrs.add(item.name)
                decos = [ast.unparse(d) for d in item.decorator_list]
                if any(d.endswith(".setter") for d in decos):
                    cls.writable.add(item.name)
                if item.name == "__init__":
                    cls.init_params.append([ast.unparse(a.annotation) if a.annotation else ""
                                            for a in item.args.args[1:] + item.args.kwonlyargs])
            elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        cls.attrs.add(target.id)
                        if is_enum:
                            cls.enum_members.add(target.id)

    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            visit_class(node, "")
        elif isinstance(node, ast.FunctionDef):
            first = node.args.args[0].annotation if node.args.args else None
            functions.setdefault(node.name, []).append(ast.unparse(first) if first else "")
    return PySurface(classes, functions)


def python_from_module() -> PySurface:
    import enum
    import inspect

    import platformpp._platformpp as ext  # noqa: PLC0415 (only this mode needs the extension)

    classes: dict[str, PyClass] = {}
    functions: dict[str, list[str]] = {}

    def visit_class(obj: type, qual: str) -> None:
        cls = classes.setdefault(qual, PyClass())
        if isinstance(obj, enum.EnumMeta):
            cls.enum_members = set(obj.__members__)
        for name in dir(obj):
            cls.attrs.add(name)
            raw = inspect.getattr_static(obj, name)
            if getattr(raw, "fset", None) is not None or hasattr(raw, "__set__") and not callable(raw) \
                    and not isinstance(raw, property):
                cls.writable.add(name)
            if isinstance(raw, type) and raw.__qualname__.endswith("." + name):
                visit_class(raw, f"{qual}.{name}")
        doc = getattr(obj.__init__, "__doc__", "") or ""
        for sig in re.findall(r"__init__\(self(?:: [\w.]+)?(.*?)\) -> None", doc):
            cls.init_params.append([p.split(":", 1)[1].split("=")[0].strip()
                                    for p in _split_params(sig.lstrip(", ")) if ":" in p])

    for name in dir(ext):
        obj = getattr(ext, name)
        if isinstance(obj, type):
            visit_class(obj, name)
        elif callable(obj):
            doc = getattr(obj, "__doc__", "") or ""
            sigs = re.findall(rf"^(?:\d+\. )?{name}\((\w+): ([\w.]+)", doc, re.M)
            # Nested enums keep their class: "platformpp._platformpp.Call.Error" -> "Call.Error".
            functions[name] = [s[1].removeprefix(ext.__name__ + ".") for s in sigs] or [""]
    return PySurface(classes, functions)


def py_enum_member(name: str) -> str:
    return name + "_" if keyword.iskeyword(name) or name == "None" else name


def check_python(row: Row, py: PySurface) -> str | None:
    if row.kind == "typedef":
        return None  # any callable
    qual = row.cls.replace("::", ".")
    if row.cls == NAMESPACE_CLASS:
        names = [snake(v) for v in name_variants(row.member)]
        found = [n for n in names if n in py.functions]
        if not found:
            return f"no function {names[0]}"
        if row.member == "EnumToString":
            m = re.search(r"EnumToString\(platformpp::([\w:]+) value\)", row.signature)
            assert m
            enum_name = m.group(1).replace("::", ".")
            annotations = [a for n in found for a in py.functions[n]]
            if not any(a == enum_name or a.endswith("." + enum_name) or a == enum_name.rsplit(".", 1)[-1]
                       and "." not in enum_name for a in annotations):
                return f"{found[0]} has no overload for {enum_name}"
        return None
    cls = py.classes.get(qual)
    if cls is None:
        return f"no class {qual}"
    if row.kind == "enum-value":
        member = py_enum_member(row.member)
        return None if member in cls.enum_members else f"no member {qual}.{member}"
    if row.kind == "class":
        missing = [a for a in ("nullobj", "__bool__") if a not in cls.attrs]
        if "copy ctor/assign deleted" not in row.signature and "__copy__" not in cls.attrs:
            missing.append("__copy__")
        return ", ".join(missing) or None
    if row.kind == "ctor":
        ref = _ref_decl(row.signature)
        want = [normalize_type(_param_type(p), {}) for p in ref[2]]
        for params in cls.init_params or [[]]:
            if len(params) < len(want):
                continue
            if all(not w.split("::")[-1][:1].isupper() or w.split("::")[-1] in p
                   for w, p in zip(want, params)):
                return None
        return f"no __init__ taking ({', '.join(want)})"
    for variant in name_variants(row.member):
        name = snake(variant)
        setter = re.fullmatch(r"Set([A-Z]\w*)", variant)
        if name in cls.attrs:
            return None
        if setter and snake(setter.group(1)) in cls.writable:
            return None
    return f"no attribute {qual}.{snake(row.member)}"


# ---------------------------------------------------------------- report

@dataclass
class AreaReport:
    area: str
    total: int = 0
    cpp_missing: list[tuple[Row, str]] = field(default_factory=list)
    py_missing: list[tuple[Row, str]] = field(default_factory=list)

    @property
    def cpp_present(self) -> int:
        return self.total - len(self.cpp_missing)

    @property
    def py_present(self) -> int:
        return self.total - len(self.py_missing)


def reference_path() -> Path:
    return DEFAULT_TSV if DEFAULT_TSV.exists() else TSV_IN_REPO


def run(areas: list[str] | None = None, python: str = "stub", tsv: Path | None = None) -> dict[str, AreaReport]:
    rows = read_reference(tsv or reference_path())
    ref_typedefs: dict[str, str] = {}
    for row in rows:
        if row.kind == "typedef":
            m = re.match(r"using (\w+) = (.*)$", row.signature)
            if m:
                ref_typedefs[f"{row.cls}::{m.group(1)}"] = m.group(2)
                ref_typedefs.setdefault(m.group(1), m.group(2))
    surface = CppSurface(HEADERS)
    py = None
    if python == "stub":
        py = python_from_stub(STUB)
    elif python == "module":
        py = python_from_module()
    reports: dict[str, AreaReport] = {}
    for row in rows:
        if areas and row.area not in areas:
            continue
        report = reports.setdefault(row.area, AreaReport(row.area))
        report.total += 1
        why = check_cpp(row, surface, ref_typedefs)
        if why:
            report.cpp_missing.append((row, why))
        if py is not None:
            why = check_python(row, py)
            if why:
                report.py_missing.append((row, why))
    return reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", choices=("stub", "module", "none"), default="stub")
    parser.add_argument("--area", action="append", help="only these areas (repeatable)")
    parser.add_argument("--tsv", type=Path, help="the reference surface (default: shared reference)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--summary", action="store_true", help="counts only, no missing list")
    args = parser.parse_args(argv)
    reports = run(args.area, args.python, args.tsv)
    if args.json:
        print(json.dumps({a: {"total": r.total,
                              "cpp_missing": [f"{row.label()}: {why}" for row, why in r.cpp_missing],
                              "python_missing": [f"{row.label()}: {why}" for row, why in r.py_missing]}
                          for a, r in sorted(reports.items())}, indent=2))
    else:
        check_py = args.python != "none"
        print(f"{'area':<14}{'members':>8}{'C++':>8}{'Python':>8}")
        for area, r in sorted(reports.items()):
            print(f"{area:<14}{r.total:>8}{r.cpp_present:>8}{r.py_present if check_py else '-':>8}")
        total = sum(r.total for r in reports.values())
        print(f"{'all':<14}{total:>8}{sum(r.cpp_present for r in reports.values()):>8}"
              f"{sum(r.py_present for r in reports.values()) if check_py else '-':>8}")
        if not args.summary:
            for area, r in sorted(reports.items()):
                for lang, missing in (("C++", r.cpp_missing), (f"Python ({args.python})", r.py_missing)):
                    if missing:
                        print(f"\n{area}: missing in {lang} ({len(missing)})")
                        for row, why in missing:
                            print(f"  {row.label()}\n      -> {why}")
    missing_any = any(r.cpp_missing or r.py_missing for r in reports.values())
    return 1 if missing_any else 0


if __name__ == "__main__":
    sys.exit(main())
