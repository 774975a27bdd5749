#!/usr/bin/env python3
"""Checks a report directory written by `pecheck report`: the JSON against
reports/schema/report.schema.json, the JUnit XML well-formed with one testcase
per check, the HTML well-formed (pecheck writes polyglot markup) with one
inline SVG per figure. Usage: check_report_files.py REPORT_DIR SCHEMA_FILE"""

import decimal
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


# Three lines of a caption at 1400 px: the page's 1080 px column holds about
# 135 characters of its 14.9 px sans-serif (measured with scripts/page-height,
# which counts the lines Chromium draws); "Figure 12. " and the bold title take
# some of the first. 3 x 120 leaves a line's slack for wider words.
CAPTION_CHARACTERS = 360


def numbers_in(value, skip_key=None):
    """Every number in a JSON value, the strings NaN and infinity left out."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, (int, float)):
        return {float(value)}
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key != skip_key:
                found |= numbers_in(item, skip_key)
    elif isinstance(value, list):
        for item in value:
            found |= numbers_in(item, skip_key)
    return found


def printed_as(text, value):
    """Whether the number `text` starts with rounds `value` to its printed digits."""
    match = re.match(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", text)
    if match is None or not isinstance(value, (int, float)):
        return False
    printed = decimal.Decimal(match.group(1))
    last_digit = decimal.Decimal(1).scaleb(printed.as_tuple().exponent)
    return abs(printed - decimal.Decimal(value)) <= decimal.Decimal("0.51") * last_digit


def figure_number_problems(report, figure, element):
    """A figure's numbers: each in the table beside it as JSON has it, each a
    value of the figure's own data, of the checks it names as sources or of
    the accuracy tables (not one computed for the table alone), and printed
    as its value rounds."""
    problems = []
    where = f"figure {figure['id']}"
    rows = []
    for table in element.iter("table"):
        if table.get("class") == "figure-numbers":
            rows = [["".join(cell.itertext()) for cell in row] for row in table.iter("tr")]
    # A row per label and a column per place on the x axis, in first-seen order.
    labels, columns = [], []
    for number in figure["numbers"]:
        labels += [number["label"]] if number["label"] not in labels else []
        columns += [number["column"]] if number["column"] not in columns else []
    cell = {(number["label"], number["column"]): number["text"] for number in figure["numbers"]}
    expected = [[f"Figure {report['figures'].index(figure) + 1}"] + [c or "Value" for c in columns]] if labels else []
    expected += [[label] + [cell.get((label, column), "") for column in columns] for label in labels]
    if rows != expected:
        problems.append(f"HTML: {where}'s table is {rows}, the JSON's numbers {expected}")
    data = numbers_in(figure, skip_key="numbers") | numbers_in(report["accuracy"])
    for check in report["checks"]:
        if any(check["id"] in source for source in figure["sources"]):
            data |= numbers_in(check)
    for number in figure["numbers"]:
        value = number["value"]
        if isinstance(value, (int, float)) and float(value) not in data:
            problems.append(f"{where}: {number['label']} = {value} is in none of the figure's data or sources")
        if not printed_as(number["text"], value):
            problems.append(f"{where}: {number['label']} printed as '{number['text']}', the value is {value}")
    return problems


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
        if element is None or element.find(f".//{namespace}svg") is None:
            problems.append(f"HTML: figure {figure['id']} is not drawn inline")
            continue
        problems += figure_number_problems(report, figure, element)
        caption = len(figure["title"]) + len(figure["caption"])
        if caption > CAPTION_CHARACTERS:
            problems.append(f"figure {figure['id']}: title and caption of {caption} characters, more than "
                            f"{CAPTION_CHARACTERS} (three lines)")
    if html.find(".//script") is not None:
        problems.append("HTML: has a script")

    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
