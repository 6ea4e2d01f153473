__version__ = '2.5.1+rocm6.2'
debug = False
cuda: Optional[str] = None
git_version = 'a8d6afb511a69687bbb2b7e88a3cf67917e1697e'
hip: Optional[str] = '6.2.41133-dd7f95766'
