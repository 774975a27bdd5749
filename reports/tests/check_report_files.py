#!/usr/bin/env python3
"""Checks a report directory written by `pecheck report`: the JSON against
reports/schema/report.schema.json, the JUnit XML well-formed with one testcase
per check, the HTML well-formed (pecheck writes polyglot markup) with one
inline SVG per figure. Usage: check_report_files.py REPORT_DIR SCHEMA_FILE"""

import json
import re
import sys
import xml.etree.ElementTree as ElementTree


def validate(schema, value, root, path="$"):
    """The subset of JSON Schema 2020-12 the report's schema uses (jsonschema
    may be missing on a fresh Debian machine); unknown keywords are errors."""
    errors = []
    types = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
    for keyword, argument in schema.items():
        if keyword in ("$schema", "$id", "title", "description", "$defs"):
            continue
        if keyword == "$ref":
            errors += validate(root["$defs"][argument.split("/")[-1]], value, root, path)
        elif keyword == "type":
            if argument == "integer":
                ok = isinstance(value, int) and not isinstance(value, bool)
            elif argument == "number":
                ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            else:
                ok = isinstance(value, types[argument]) and not (argument != "boolean" and isinstance(value, bool))
            if not ok:
                errors.append(f"{path}: not of type {argument}")
        elif keyword == "const":
            if value != argument:
                errors.append(f"{path}: not {argument!r}")
        elif keyword == "enum":
            if value not in argument:
                errors.append(f"{path}: {value!r} not in {argument}")
        elif keyword == "required":
            if isinstance(value, dict):
                errors += [f"{path}: missing {key}" for key in argument if key not in value]
        elif keyword == "properties":
            if isinstance(value, dict):
                for key, sub in argument.items():
                    if key in value:
                        errors += validate(sub, value[key], root, f"{path}.{key}")
        elif keyword == "items":
            if isinstance(value, list):
                for i, item in enumerate(value):
                    errors += validate(argument, item, root, f"{path}[{i}]")
        elif keyword == "anyOf":
            if all(validate(option, value, root, path) for option in argument):
                errors.append(f"{path}: matches none of anyOf")
        elif keyword == "minimum":
            if isinstance(value, (int, float)) and value < argument:
                errors.append(f"{path}: below {argument}")
        elif keyword == "pattern":
            if isinstance(value, str) and not re.search(argument, value):
                errors.append(f"{path}: does not match {argument}")
        else:
            raise ValueError(f"the schema uses '{keyword}', which this checker does not enforce")
    return errors


def main(directory, schema_file):
    with open(schema_file, encoding="utf-8") as f:
        schema = json.load(f)
    with open(f"{directory}/report.json", encoding="utf-8") as f:
        report = json.load(f)
    problems = validate(schema, report, schema)

    junit = ElementTree.parse(f"{directory}/report.junit.xml").getroot()
    testcases = junit.findall(".//testcase")
    if len(testcases) != len(report["checks"]):
        problems.append(f"JUnit: {len(testcases)} testcases for {len(report['checks'])} checks")
    if [t.get("name") for t in testcases] and sorted(t.get("name") for t in testcases) != sorted(
            c["id"] for c in report["checks"]):
        problems.append("JUnit: testcase names are not the check ids")
    failures = len(junit.findall(".//testcase/failure"))
    if failures != report["summary"]["failed"]:
        problems.append(f"JUnit: {failures} failures, the JSON says {report['summary']['failed']}")

    html = ElementTree.parse(f"{directory}/report.html").getroot()
    namespace = "{http://www.w3.org/2000/svg}"
    for figure in report["figures"]:
        element = html.find(f".//figure[@id='figure-{figure['id']}']")
        if element is None or element.find(f"{namespace}svg") is None:
            problems.append(f"HTML: figure {figure['id']} is not drawn inline")
    if html.find(".//script") is not None:
        problems.append("HTML: has a script")

    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
