"""ajv-formats' regular expressions (3.0.1, `full` mode), kept as the ECMAScript
sources and flags it writes (a test compares them with the installed package), and
`js_regex`, which gives each the Python `re` pattern of the same meaning.

ECMAScript and Python `re` differ where these sources reach: `$` also matches before
a final newline in Python (here `\\Z`); JS `\\s` is its own set (`_WS`); `.` stops at
four line terminators in JS, one in Python; with the `m` flag `^`/`$` see those four;
JS's `i` without `u` never folds a non-ASCII character to an ASCII one, Python's `re.I`
does (`ſ` to `s`, `K` to `k`) unless `re.ASCII`, exact for these ASCII sources;
`\\u{...}` is a code point. Without `u`, JS reads UTF-16 units and Python code points:
the sources only count characters where an astral one fails either way. Standard
library only."""

from __future__ import annotations

import re
from collections.abc import Mapping

_WS = "\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_LT = "\n\r\u2028\u2029"
# Outside a class; with the `m` flag, `^`/`$` are line starts and ends.
_OUTSIDE = {
    "$": r"\Z",
    ".": f"[^{_LT}]",
    r"\d": "[0-9]",
    r"\s": f"[{_WS}]",
    r"\S": f"[^{_WS}]",
}
_MULTILINE = {"^": f"(?<![^{_LT}])", "$": f"(?![^{_LT}])"}
_INSIDE = {r"\d": "0-9", r"\s": _WS}

JS_REGEXES: Mapping[str, tuple[str, str]] = {
    "duration": (
        (r"^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$"),
        "",
    ),
    "uri-reference": (
        (
            r"^(?:[a-z][a-z0-9+\-.]*:)?(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-"
            r"f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?"
            r":[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-"
            r"f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4}"
            r")?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-"
            r"9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}"
            r":[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]"
            r"\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}"
            r"|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._"
            r"~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2["
            r"0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'"
            r'"()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'
            r"'"
            r'"()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'
            r"'"
            r'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'
            r"'"
            r'"()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'
            r"'"
            r'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'
            r"'"
            r'"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\?(?:[a-z0-9\-._~!$&'
            r"'"
            r'"()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'
            r"'"
            r'"()*+,;=:@/?]|%[0-9a-f]{2})*)?$'
        ),
        "i",
    ),
    "uri-template": (
        (
            r'^(?:(?:[^\x00-\x20"'
            r"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+("
            r"?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3"
            r"}|\*)?)*\})*$"
        ),
        "i",
    ),
    "url": (
        (
            r"^(?:https?|ftp):\/\/(?:\S+(?::\S*)?@)?(?:(?!(?:10|127)(?:\.\d{1,3}){3})("
            r"?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:"
            r"\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]"
            r"\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))|(?:(?:[a-z0-9\u"
            r"{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)(?:\.(?:[a-z0-9\u{00a1}-\u"
            r"{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)*(?:\.(?:[a-z\u{00a1}-\u{ffff}]{2,"
            r"})))(?::\d{2,5})?(?:\/[^\s]*)?$"
        ),
        "iu",
    ),
    "email": (
        (
            r"^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z"
            r"0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$"
        ),
        "i",
    ),
    "hostname": (
        (
            r"^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0"
            r"-9a-z]{0,61}[0-9a-z])?)*\.?$"
        ),
        "i",
    ),
    "ipv4": (
        (
            r"^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|["
            r"1-9]?\d)$"
        ),
        "",
    ),
    "ipv6": (
        (
            r"^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{"
            r"1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?"
            r"\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0"
            r"-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-"
            r"9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0"
            r"-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0"
            r"-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5"
            r"]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))"
            r"|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((2"
            r"5[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})"
            r")|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4"
            r"}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
            r"){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2"
            r"[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))$"
        ),
        "i",
    ),
    "uuid": (r"^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$", "i"),
    "json-pointer": (r"^(?:\/(?:[^~/]|~0|~1)*)*$", ""),
    "json-pointer-uri-fragment": (
        (r"^#(?:\/(?:[a-z0-9_\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*$"),
        "i",
    ),
    "relative-json-pointer": (r"^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$", ""),
    "DATE": (r"^(\d\d\d\d)-(\d\d)-(\d\d)$", ""),
    "TIME": (r"^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$", "i"),
    "DATE_TIME_SEPARATOR": (r"t|\s", "i"),
    "NOT_URI_FRAGMENT": (r"\/|:", ""),
    "URI": (
        (
            r"^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f"
            r"]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:"
            r"[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f"
            r"]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})"
            r"?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9"
            r"a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:"
            r"[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d"
            r"|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|("
            r"?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!"
            r"$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-"
            r"4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:"
            r"\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&"
            r"'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2"
            r"})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~"
            r"!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0"
            r"-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$"
        ),
        "i",
    ),
    "BYTE": (r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$", "gm"),
    "Z_ANCHOR": (r"[^\\]\\Z", ""),
}


def js_regex(source: str, flags: str) -> re.Pattern[str]:
    """The Python pattern whose `search` is ECMAScript's `test` of `/source/flags`,
    for sources like ajv-formats' (no `[` right after `[` or `[^`, no backreference)."""
    outside = {**_OUTSIDE, **_MULTILINE} if "m" in flags else _OUTSIDE
    out: list[str] = []
    i, in_class = 0, False
    while i < len(source):
        ch = source[i]
        if ch == "\\" and source.startswith("\\u{", i):
            end = source.index("}", i)
            out.append(re.escape(chr(int(source[i + 3 : end], 16))))
            i = end + 1
            continue
        if ch == "\\":
            pair = source[i : i + 2]
            out.append((_INSIDE if in_class else outside).get(pair, pair))
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if source.startswith("[^", i):
                ch, i = "[^", i + 1
        else:
            ch = outside.get(ch, ch)
        out.append(ch)
        i += 1
    py_flags = re.IGNORECASE if "i" in flags else 0
    return re.compile("".join(out), py_flags if "u" in flags else py_flags | re.ASCII)


# Rewrites of the same language that Python's backtracking needs to stay linear:
# `\S+(?::\S*)?` is `\S+`, as `:` is itself `\S`; as written, a URL like
# "http://a:a:a:…" takes quadratic time (9 s at 40 kB; 1 s in V8).
_SAME_LANGUAGE = {"url": (r"(?:\S+(?::\S*)?@)?", r"(?:\S+@)?")}


def _compile(name: str, source: str, flags: str) -> re.Pattern[str]:
    if name in _SAME_LANGUAGE:
        written, same = _SAME_LANGUAGE[name]
        assert written in source, name
        source = source.replace(written, same)
    return js_regex(source, flags)


COMPILED: Mapping[str, re.Pattern[str]] = {
    name: _compile(name, source, flags) for name, (source, flags) in JS_REGEXES.items()
}
