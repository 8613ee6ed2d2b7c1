# Local stubs: the parts of cloudpickle this project uses.
import pickle
from typing import IO, Any

class Pickler(pickle.Pickler):
    def __init__(self, file: IO[bytes], protocol: int | None = None, buffer_callback: Any = None) -> None: ...
    def reducer_override(self, obj: Any) -> Any: ...

CloudPickler = Pickler

def dumps(obj: Any, protocol: int | None = None, buffer_callback: Any = None) -> bytes: ...
def dump(obj: Any, file: IO[bytes], protocol: int | None = None, buffer_callback: Any = None) -> None: ...

loads = pickle.loads
load = pickle.load
