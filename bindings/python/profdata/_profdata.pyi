# SPDX-License-Identifier: Apache-2.0
# The C extension (src/*.c) for type checkers: every name in it is Any here;
# the Python wrappers that call it give the types.
from typing import Any

def __getattr__(name: str) -> Any: ...
