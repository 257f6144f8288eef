"""otvar.Error: the one exception for every failed call, and the status names it carries."""

# OTV_STATUS_LIST of include/otvar.h, by value (tests/python/test_errors.py checks the two agree).
# Append-only like the C list: codes are never renumbered.
STATUS_NAMES = ("OK", "NOMEM", "IO", "UNSUPPORTED", "TRUNCATED", "BAD_OFFSET", "BAD_VALUE",
                "NO_TABLE", "ARG", "NOT_FOUND", "SMALL_BUFFER", "LIMIT")


def status_name(status):
    """The OTV_E_ name of a status value ("BAD_OFFSET"), or "E<n>" for a newer library's code."""
    return STATUS_NAMES[status] if 0 <= status < len(STATUS_NAMES) else "E%d" % status


class Error(Exception):
    """A failed otvar call, with what the C library says about it.

    code: the status name ("BAD_OFFSET", "NOT_FOUND", ...; "WOFF" for the WOFF codec, whose C API
    has no status codes); table: the table tag as a string, or None for the file as a whole;
    offset: the byte offset inside that table (or the file); message: the C message alone.
    str(error) is the library's printed form, `gvar+0x1a2c: offset out of range (glyph 17 data)`.
    """

    def __init__(self, code, text, table=None, offset=0, message=None):
        super().__init__(text)
        self.code = code
        self.table = table
        self.offset = offset
        self.message = text if message is None else message

    def __repr__(self):
        return "otvar.Error(%s: %s)" % (self.code, self)
