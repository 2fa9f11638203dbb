"""Values to put to ajv-formats and to toolc's server_formats side by side
(tests/test_server_formats.py): per format, valid values, invalid ones and near misses
(leap days and seconds, offsets, lowercase `t`/`z`, fractions, IPv6 forms, IDNs, control
characters, trailing newlines, empty and very long strings), values of every JSON type,
and `variants`, the mechanical near misses of each. `SEEDS` are the valid values the
generated strings start from."""

from __future__ import annotations

from typing import Any

_LONG = "a" * 5000
# fmt: off
_DATES = [
    "2020-02-29", "2019-02-29", "1900-02-29", "2000-02-29", "2021-04-31", "2021-04-30",
    "2021-12-31", "2021-13-01", "2021-00-10", "2021-01-00", "2021-01-32", "0000-01-01",
    "9999-12-31", "2021-1-01", "21-01-01", "2021/01/01", "２０２１-01-01", "2021-01-01\n",
    "",
]
_TIMES = [
    "23:59:60Z", "23:59:60+00:00", "00:59:60+01:00", "15:59:60-08:00", "23:59:60.999Z",
    "23:59:61Z", "22:59:60Z", "23:58:60Z", "00:00:60+00:01", "23:59:59.9999999999999999Z",
    "12:00:00z", "12:00:00+0530", "12:00:00+05", "12:00:00+24:00", "12:00:00+23:60",
    "12:00:00+23:59", "24:00:00Z", "12:60:00Z", "12:00:00.Z", "12:00:00.000000001Z",
    "12:00:00", "1:00:00Z", "12:00:00 Z", "12:00:00Z\n", "12:00:00-00:00", "99:99:99Z",
    "12:00:00.5+01:00", "T12:00:00Z",
]
_DATE_TIMES = [
    "2020-02-29T23:59:60Z", "2021-02-29T00:00:00Z", "2020-01-01t00:00:00z",
    "2020-01-01 00:00:00Z", "2020-01-01\t00:00:00Z", "2020-01-01\u300000:00:00Z",
    "2020-01-01\u202800:00:00Z", "2020-01-01\x8500:00:00Z", "2020-01-01\x1c00:00:00Z",
    "2020-01-01\ufeff00:00:00Z", "2020-01-01T00:00:00", "2020-01-01T00:00:00.123456+05:30",
    "2020-01-01TT00:00:00Z", "2020-01-01T00:00:00Zt", "2020-01-01", "yesterday",
    "2020-01-01T00:00:00Z\n", "2020-01-01T00:00:00+01:00:00", "1990-12-31T15:59:60-08:00",
]
_URIS = [
    "https://example.com", "https://user:pw@example.com:8080/a/b?c=d&e#frag",
    "urn:isbn:0451450523", "mailto:someone@example.com", "tel:+1-816-555-1212",
    "http://[::1]:80/", "http://[2001:db8::7]/c=GB?objectClass?one", "http://[v1.fe]/",
    "http://[::ffff:1.2.3.4]/", "http://[1:2:3:4:5:6:7:8]/", "http://[1::2::3]/",
    "http://192.168.0.1/", "http://999.1.1.1/", "http://%41%42/", "http://%4/",
    "http://example.com/%zz", "http://bücher.de/", "http://xn--bcher-kva.de/", "a:b",
    "a:", "1a:b", "//host/path", "/abs/path", "rel/path", "#frag", "?q", "",
    "not a uri", "http://a b/", "http://a/b c", "http://a/\n", "http://a/\"q\"",
    "http://a/<b>", "http://a/{b}", "http://a/b\\c", "http://a:80:80/", "http://a:x/",
    "HTTP://EXAMPLE.COM/", "http://a/😀", "javascript:alert(1)", "file:///etc/passwd",
    "a:b#c#d", "a:b?c?d", "a:" + _LONG, "http://" + _LONG + ".com/",
]
_URLS = [
    "http://localhost", "http://1.2.3.4", "http://10.0.0.1", "http://127.0.0.1",
    "http://169.254.1.1", "http://172.16.0.1", "http://172.32.0.1", "http://192.168.1.1",
    "http://223.255.255.254", "http://224.0.0.1", "http://1.2.3.0", "http://1.2.3.255",
    "https://www.example.com/path?q=1#f", "ftp://ftp.example.org/", "http://a.b",
    "http://a.bc", "http://a.b.cd:80", "http://a.bc:8", "http://a.bc:123456",
    "http://user:pass@a.bc/", "http://bücher.de", "http://例子.测试", "http://a.bc/ x",
    "http://a.bc/\u3000", "http://a.bc/\x85", "http://-a.bc", "http://a-.bc",
    "http://a--b.cd", "HTTP://A.BC", "httpſ://a.bc", "http://a.b\u212a", "http://a.b😀",
    "http://😀.bc", "mailto:a@b.cd", "http://a.bc\n",
]
_EMAILS = [
    "a@b.c", "a.b@c.de", "a..b@c.de", ".a@b.c", "a.@b.c", "a+tag@example.com",
    "!#$%&'*+/=?^_`{|}~-@example.com", "\"quoted\"@example.com", "a@b", "a@-b.c",
    "a@b-.c", "a@b..c", "a@[1.2.3.4]", "user@bücher.de", "üser@example.com", "@b.c",
    "a@", "a@b.c\n", "a b@c.d", "A@B.CD", "a@" + "b" * 64 + ".com", "",
]
_HOSTNAMES = [
    "example.com", "a", "a.", "a..b", ".a", "-a", "a-", "a-b", "a_b", "xn--bcher-kva",
    "bücher.de", "a" * 63, "a" * 64, ("a" * 63 + ".") * 3 + "a" * 61,
    ("a" * 63 + ".") * 3 + "a" * 62, ("a" * 63 + ".") * 3 + "a" * 61 + ".", "EXAMPLE.COM",
    "1.2.3.4", "a.b\n", "", "a.-b",
]
_IPV4 = [
    "0.0.0.0", "255.255.255.255", "256.0.0.0", "1.2.3", "1.2.3.4.5", "01.2.3.4",
    "1.2.3.04", "1.2.3.4\n", " 1.2.3.4", "١.٢.٣.٤", "1.2.3.4/8", "",
]
_IPV6 = [
    "::", "::1", "1::", "fe80::1", "FE80::1", "2001:db8::8a2e:370:7334",
    "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8",
    "1::2::3", "::ffff:192.168.0.1", "::ffff:256.1.1.1", "1:2:3:4:5:6:1.2.3.4",
    "1:2:3:4:5:6:7:1.2.3.4", "fe80::1%eth0", "12345::", "g::", ":1", "1:", "::1\n", "",
]
_OTHERS: dict[str, list[Any]] = {
    "duration": [
        "P1Y2M3DT4H5M6S", "P4W", "PT1S", "P1D", "P", "PT", "P1W2D", "P1.5Y", "PT1H1D",
        "p1d", "P1D\n", "P-1D", "P1Y1Y", "", "1D",
    ],
    "uri-template": [
        "http://example.com/{id}", "{+path}/here", "{#frag}", "{.dom}", "{/seg*}",
        "{;x,y}", "{?q,lang}", "{&x}", "{=x}", "{x:3}", "{x:10000}", "{x:0}", "{x*}",
        "{}", "{x", "x}", "{%41}", "{a b}", "%zz", "a b", "\"q\"", "{é}", "é", "",
    ],
    "uuid": [
        "123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
        "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
        "URN:UUID:123e4567-e89b-12d3-a456-426614174000",
        "123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g",
        "{123e4567-e89b-12d3-a456-426614174000}", "",
    ],
    "json-pointer": ["", "/", "/a/b", "/~0~1", "/~2", "a", "/a~", "/😀", "/a\n", "//"],
    "json-pointer-uri-fragment": ["#", "#/", "#/a%20b", "#/a b", "#/~01", "#/%zz", "/a"],
    "relative-json-pointer": ["0", "1/a", "2#", "0#/a", "01", "-1", "1a", "10/~0", ""],
    "regex": [
        "^a+$", "[", "(", ")", "a{2,1}", "(?<a>x)\\k<a>", "(?<a>x)\\k<b>", "(?<a>x)(?<a>y)",
        "\\Z", "a\\Z", "\\\\Z", "a\\\\Z", "(?<=a)b", "(?<=a)*", "(?=a)*", "(?i:a)", "[z-a]",
        "[\\d-z]", "\\", "\\c", "\\u{1F600}", "\\p{L}", "*", "a**", "{2}", "{", "}", "]",
        "(?<é>x)", "(?<゛>x)", "(?<a・>x)", "(?<ﹰ>x)", "(?<a\u200d>x)", "(?<\\u0061>x)",
        "(?<a\\u003e.)", "(?<1a>x)", "(?<a>x)\\k", "[\\c-a]", "[a-\\d]", "[\\w-\\d]",
        "(?<a>x)[\\k]", "[\\k](?<a>x)", "[\\k(?<a>)]", "\\k(?<a>x)", "[\\k]",
        "[😀-😁]", "x{2147483648,2147483647}", "(?:" * 2000 + ")" * 2000, "(a)" * 32767,
        "(a)" * 32768, "", _LONG,
    ],
    "byte": [
        "", "QQ==", "QUI=", "QUJD", "QUJ", "Q===", "QQ=", "====", "QUJD\n", "\nQUJD",
        "!!!\n", "!!!\nQUJD", "QUJD\r!!", "!!\u2028", "!!\x85", "QU JD", "QUJD" * 1000,
    ],
}
CORPUS: dict[str, list[Any]] = {
    "date": _DATES,
    "time": _TIMES,
    "date-time": _DATE_TIMES,
    "iso-time": _TIMES,
    "iso-date-time": _DATE_TIMES,
    "uri": _URIS,
    "uri-reference": _URIS,
    "url": _URLS,
    "email": _EMAILS,
    "hostname": _HOSTNAMES,
    "ipv4": _IPV4,
    "ipv6": _IPV6,
    **_OTHERS,
}
NUMBERS: list[Any] = [
    0, 1, -1, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 1.0, 1.5, -0.0, 2147483647.5,
    -2147483648.0, 2**53, 2**53 + 1, 2**63, 2**64, 10**308, 2**1024, -(10**400),
    1e300, 1e-300, 5e-324, 2.5e9,
]
OTHER_TYPES: list[Any] = [None, True, False, [], ["2020-01-01"], {}, {"a": 1}, 0, 1.5]
# fmt: on
UNKNOWN_NAMES = ["", "made-up", "DATE", "Date-Time", "constructor", "__proto__", "toString"]


def variants(value: str) -> list[str]:
    """Mechanical near misses of a string: affixed whitespace and line terminators,
    a NUL, case changes, an astral character, a lone surrogate, a cut."""
    return [
        value + "\n",
        value + "\r\n",
        "\n" + value,
        " " + value,
        value + " ",
        value + "\u2028",
        value + "\x00",
        value.upper(),
        value.lower(),
        value.swapcase(),
        value + "😀",
        value + "\ud800",
        value[:-1],
        value[1:],
    ]


SEEDS: dict[str, list[str]] = {
    name: [v for v in values if isinstance(v, str) and len(v) < 200]
    for name, values in CORPUS.items()
}
