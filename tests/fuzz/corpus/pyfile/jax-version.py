_version = "0.5.0"
_release_version: str = '0.5.0'
_git_hash: str | None = None
__version__ = _get_version_string()
