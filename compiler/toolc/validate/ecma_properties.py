"""The Unicode property names ECMA-262 accepts in `\\p{...}` under the `u` flag, and how to say
each to Rust's regex crate.

ECMA-262 matches names exactly (case and underscores count); Rust matches them loosely, so a name
is checked here first and then written in a form Rust cannot read as another property: general
categories as `gc=<long name>`, binary properties by their long name (Rust tries binary
properties first for a lone name), scripts as `sc=`/`scx=`. The sets are the spec's tables
(ECMA-262 2024, tables 67 and 68, and PropertyValueAliases.txt for the general categories);
`tests/test_ecma_patterns.py` compiles every one of them in Node and in the model's engine.
Scripts are not listed: their names change with each Unicode version (see decision 0025)."""

from __future__ import annotations

# Long name → its other names (General_Category values, from PropertyValueAliases.txt).
GENERAL_CATEGORIES: dict[str, tuple[str, ...]] = {
    "Cased_Letter": ("LC",),
    "Close_Punctuation": ("Pe",),
    "Connector_Punctuation": ("Pc",),
    "Control": ("Cc", "cntrl"),
    "Currency_Symbol": ("Sc",),
    "Dash_Punctuation": ("Pd",),
    "Decimal_Number": ("Nd", "digit"),
    "Enclosing_Mark": ("Me",),
    "Final_Punctuation": ("Pf",),
    "Format": ("Cf",),
    "Initial_Punctuation": ("Pi",),
    "Letter": ("L",),
    "Letter_Number": ("Nl",),
    "Line_Separator": ("Zl",),
    "Lowercase_Letter": ("Ll",),
    "Mark": ("M", "Combining_Mark"),
    "Math_Symbol": ("Sm",),
    "Modifier_Letter": ("Lm",),
    "Modifier_Symbol": ("Sk",),
    "Nonspacing_Mark": ("Mn",),
    "Number": ("N",),
    "Open_Punctuation": ("Ps",),
    "Other": ("C",),
    "Other_Letter": ("Lo",),
    "Other_Number": ("No",),
    "Other_Punctuation": ("Po",),
    "Other_Symbol": ("So",),
    "Paragraph_Separator": ("Zp",),
    "Private_Use": ("Co",),
    "Punctuation": ("P", "punct"),
    "Separator": ("Z",),
    "Space_Separator": ("Zs",),
    "Spacing_Mark": ("Mc",),
    "Surrogate": ("Cs",),
    "Symbol": ("S",),
    "Titlecase_Letter": ("Lt",),
    "Unassigned": ("Cn",),
    "Uppercase_Letter": ("Lu",),
}

# Long name → short name (ECMA-262 table 67, binary properties of code points; the properties
# of strings of table 68, such as RGI_Emoji, exist only under the `v` flag).
BINARY_PROPERTIES: dict[str, str | None] = {
    "ASCII": None,
    "ASCII_Hex_Digit": "AHex",
    "Alphabetic": "Alpha",
    "Any": None,
    "Assigned": None,
    "Bidi_Control": "Bidi_C",
    "Bidi_Mirrored": "Bidi_M",
    "Case_Ignorable": "CI",
    "Cased": None,
    "Changes_When_Casefolded": "CWCF",
    "Changes_When_Casemapped": "CWCM",
    "Changes_When_Lowercased": "CWL",
    "Changes_When_NFKC_Casefolded": "CWKCF",
    "Changes_When_Titlecased": "CWT",
    "Changes_When_Uppercased": "CWU",
    "Dash": None,
    "Default_Ignorable_Code_Point": "DI",
    "Deprecated": "Dep",
    "Diacritic": "Dia",
    "Emoji": None,
    "Emoji_Component": "EComp",
    "Emoji_Modifier": "EMod",
    "Emoji_Modifier_Base": "EBase",
    "Emoji_Presentation": "EPres",
    "Extended_Pictographic": "ExtPict",
    "Extender": "Ext",
    "Grapheme_Base": "Gr_Base",
    "Grapheme_Extend": "Gr_Ext",
    "Hex_Digit": "Hex",
    "IDS_Binary_Operator": "IDSB",
    "IDS_Trinary_Operator": "IDST",
    "ID_Continue": "IDC",
    "ID_Start": "IDS",
    "Ideographic": "Ideo",
    "Join_Control": "Join_C",
    "Logical_Order_Exception": "LOE",
    "Lowercase": "Lower",
    "Math": None,
    "Noncharacter_Code_Point": "NChar",
    "Pattern_Syntax": "Pat_Syn",
    "Pattern_White_Space": "Pat_WS",
    "Quotation_Mark": "QMark",
    "Radical": None,
    "Regional_Indicator": "RI",
    "Sentence_Terminal": "STerm",
    "Soft_Dotted": "SD",
    "Terminal_Punctuation": "Term",
    "Unified_Ideograph": "UIdeo",
    "Uppercase": "Upper",
    "Variation_Selector": "VS",
    "White_Space": "space",
    "XID_Continue": "XIDC",
    "XID_Start": "XIDS",
}

_GC = {alias: long for long, aliases in GENERAL_CATEGORIES.items() for alias in (long, *aliases)}
_BINARY = {
    alias: long
    for long, short in BINARY_PROPERTIES.items()
    for alias in (long, short)
    if alias is not None
}
_NOT_IN_RUST = frozenset(("Changes_When_NFKC_Casefolded",))
_SCRIPT_KEYS = frozenset(("Script", "sc", "Script_Extensions", "scx"))


class PropertyProblem(ValueError):
    """Why a `\\p{...}` body is refused; `invalid` when no ECMAScript engine accepts it."""

    def __init__(self, message: str, hint: str, invalid: bool) -> None:
        super().__init__(message)
        self.hint = hint
        self.invalid = invalid


def rust_property(body: str) -> str | None:
    """The Rust `\\p{...}` body meaning what ECMA-262's `\\p{body}` means; None for the
    Surrogate category, which Rust's tables leave out (no Rust string can hold a surrogate)."""
    name, eq, value = body.partition("=")
    if eq:
        if name in ("General_Category", "gc") and value in _GC:
            return _gc(value)
        if name in _SCRIPT_KEYS and value:
            raise PropertyProblem(
                f"Unicode script properties (\\p{{{body}}}) are not supported: script names "
                "and members change with every Unicode version, and toolc keeps no table that "
                "would tell a script every client knows from a misspelling",
                "list the characters or ranges the value may use, e.g. [\\u0370-\\u03FF]",
                invalid=False,
            )
        raise PropertyProblem(
            f"\\p{{{body}}} names no Unicode property ECMA-262 knows",
            "write General_Category=<value> (or gc=), or a lone general category or binary "
            "property such as \\p{L} or \\p{Alphabetic}; names are case-sensitive",
            invalid=True,
        )
    if body in _GC:
        return _gc(body)
    if body in _BINARY:
        if _BINARY[body] in _NOT_IN_RUST:
            raise PropertyProblem(
                f"\\p{{{body}}} has no table in the model's engine (Rust's regex crate)",
                "list the characters or ranges instead",
                invalid=False,
            )
        return _BINARY[body]
    raise PropertyProblem(
        f"\\p{{{body}}} names no general category or binary property ECMA-262 knows",
        "names are case-sensitive and exact, e.g. \\p{Lu}, \\p{Letter}, \\p{White_Space}",
        invalid=True,
    )


def _gc(value: str) -> str | None:
    return None if _GC[value] == "Surrogate" else f"gc={_GC[value]}"
