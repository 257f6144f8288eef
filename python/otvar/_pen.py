"""Drawing into fontTools-style pens: an otv_pen whose C callbacks call the Python pen."""

from . import _clib


class PenAdapter:
    """The otv_pen for one draw call into `pen` (moveTo, lineTo, qCurveTo, curveTo, closePath,
    points as (x, y) tuples; a quadratic segment is qCurveTo(control, end)).

    ctypes prints and drops an exception raised inside a callback, so the first one the pen
    raises is kept in `exception` (later callbacks then do nothing) for the caller to re-raise
    once the C call has returned. Keep the adapter alive for the whole call: the C side holds
    pointers to its callbacks.
    """

    def __init__(self, pen):
        self.exception = None
        move_to, line_to = pen.moveTo, pen.lineTo
        q_curve_to, curve_to, close_path = pen.qCurveTo, pen.curveTo, pen.closePath
        self.c_pen = _clib.Pen(
            _clib.MOVE_TO(self._guard(lambda x, y: move_to((x, y)))),
            _clib.LINE_TO(self._guard(lambda x, y: line_to((x, y)))),
            _clib.QUAD_TO(self._guard(lambda cx, cy, x, y: q_curve_to((cx, cy), (x, y)))),
            _clib.CUBIC_TO(self._guard(
                lambda ax, ay, bx, by, x, y: curve_to((ax, ay), (bx, by), (x, y)))),
            _clib.CLOSE_PATH(self._guard(close_path)))

    def _guard(self, draw):
        """A C callback (its first argument is the unused ctx) that calls draw until it raises."""
        def callback(_ctx, *coords):
            if self.exception is None:
                try:
                    draw(*coords)
                except BaseException as e:  # noqa: B036 - re-raised by the caller
                    self.exception = e
        return callback
