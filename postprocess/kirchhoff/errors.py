"""The one exception of the kirchhoff reader: a file or folder that cannot be read as a kirchhoff
output, with a message that names the path and what is wrong (no h5py traceback)."""


class LoadError(Exception):
    """Raised by kirchhoff.load and the readers; str(e) is a one-line message for the user."""


class MissingColumn(LoadError, KeyError):
    """A column (or field) a file does not have; also a KeyError, so Mapping.get and `in` work."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""
