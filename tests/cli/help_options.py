"""@brief `lucent --help` names every option the parser accepts: the options are read from app/'s
sources (every file that parses a command line), so an option added without help fails here."""
import os
import re

from test_cli import check, run

APP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "app")
# The methods' parameters are rows of one table in core: their options are parsed from it.
TABLE = os.path.join(APP, "..", "core", "src", "seg", "MethodParameters.cpp")
# A whole string literal that is an option name: "--seed", "-o" (not "--steps must be ...").
OPTION = re.compile(r'"(--?[a-z][a-z0-9-]*)"')


def parsed_options(app=APP):
    """Option names in the sources under app/ that build or read a CommandLine (main.cpp too)."""
    found = {}
    for name in sorted(os.listdir(app)):
        if not name.endswith(".cpp"):
            continue
        text = open(os.path.join(app, name)).read()
        if "CommandLine" not in text:
            continue  # e.g. Demo.cpp: no command line of its own
        for option in OPTION.findall(text):
            found.setdefault(option, name)
    for option in OPTION.findall(open(TABLE).read()):
        found.setdefault(option, "MethodParameters.cpp")
    return found


def help_contract(lucent):
    options = parsed_options()
    # The parse must see the known options, or a broken pattern would pass with nothing to check.
    known = {"--method", "--seed", "--roi", "--threads", "--screenshot", "--live", "--steps", "--record", "-o",
             "--threshold", "--per-voxel"}
    check(known <= set(options), "options read from app/: %s" % sorted(known - set(options)))
    rc, text, err = run(lucent, "--help")
    check(rc == 0 and text.startswith("usage: lucent"), "lucent --help prints the usage: %r" % err)
    missing = [o for o in sorted(options) if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(o), text)]
    check(not missing, "lucent --help names every option the parser accepts; missing: %s"
          % ", ".join("%s (%s)" % (o, options[o]) for o in missing))
