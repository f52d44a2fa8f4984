"""Shop module: a realistic fixture."""
import dataclasses

MAX_ITEMS = 100
default_currency = "EUR"
total_count: int = 0


def total(items, discount: int = 0) -> int:
    """Sum the prices."""
    s = sum(i.price for i in items)
    return max(0, s - discount)


@dataclasses.dataclass
class Item:
    """One line."""

    name: str
    price: int = 0

    def label(self) -> str:
        return f"{self.name}: {self.price}"

    class Meta:
        ordering = ["name"]

        class Inner:
            def deep(self):
                return 'deep'


class Cart:
    def __init__(self, items=None):
        self.items = list(items or [])

    @property
    def size(self):
        return len(self.items)

    @size.setter
    def size(self, value: int):
        raise AttributeError('read only')

    async def pay(self, gateway):
        def helper():
            return 1
        return await gateway.charge(total(self.items))
