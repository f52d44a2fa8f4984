import os

LIMITS = {
    "low": 1,
    "high": 10,
}


def total(items, discount: int = 0) -> int:
    """Sum."""
    s = sum(i.price for i in items)
    if s > 0:
        return max(0, s - discount)
    return 0


class Cart(object):
    def __init__(self, items=None):
        self.items = list(items or [])

    def pay(
        self,
        gateway,
        reference="x",
        retries=3,
        timeout_seconds=30,
        verbose=False,
        dry_run=False,
    ):
        return gateway.charge(
            total(self.items),
            reference=reference,
            retries=retries,
            timeout=timeout_seconds,
        )
