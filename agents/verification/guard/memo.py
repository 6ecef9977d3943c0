"""A property computed on first read and kept, for the guard's many small frozen records."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

_T = TypeVar("_T")


class memo(Generic[_T]):
    """functools.cached_property without the lock Python 3.11 takes on every first read: the guard
    reads a few properties of thousands of source contexts once each, and the lock costs as much
    as the reading. Two threads computing one value at once would only compute it twice."""

    def __init__(self, compute: Callable[[Any], _T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> memo[_T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> memo[_T] | _T:
        if instance is None:
            return self
        value = self.compute(instance)
        instance.__dict__[self.name] = value  # found before this descriptor from now on
        return value
