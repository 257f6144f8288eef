"""The lifetime protocol Font and Location share: `with` blocks and garbage collection call the
class's close(), which frees its C object and may run any number of times."""


class Closable:
    def close(self):
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()
