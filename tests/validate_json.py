#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema (draft 2020-12) for the
test suite: validate_json.py SCHEMA DOCUMENT...

Prints one line per document, 'valid: PATH' or 'invalid: PATH: <pointer>:
<message>', and exits 0 when every document is valid, 1 when one is not,
3 when the jsonschema package is missing (Debian: python3-jsonschema)."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("python3 has no jsonschema module (apt-get install python3-jsonschema, or pip install jsonschema)")
    sys.exit(3)


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    status = 0
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        if errors:
            status = 1
            for error in errors:
                pointer = "".join("/" + str(part) for part in error.absolute_path)
                print(f"invalid: {path}: {pointer or '/'}: {error.message}")
        else:
            print(f"valid: {path}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
