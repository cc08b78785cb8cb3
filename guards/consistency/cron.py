"""Five-field cron expressions (UTC), for the consistency scan's schedule.

Small on purpose: minute, hour, day of month, month, day of week; each a `*`, a number,
a range `a-b`, a list `a,b`, and a step `*/n` or `a-b/n`. Day of month and day of week
combine as cron does: when both are restricted, either matching is enough. Names
(`MON`, `JAN`) and `@nightly` shortcuts are not accepted: the schedule is one line of
YAML, and a form nobody has to look up is the safer one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

_FIELDS = (("minute", 0, 59), ("hour", 0, 23), ("day", 1, 31), ("month", 1, 12), ("weekday", 0, 7))
_SEARCH_DAYS = 366 * 5  # enough for any valid expression (Feb 29 on a given weekday)


def _field(text: str, name: str, low: int, high: int) -> frozenset[int]:
    values: set[int] = set()
    for part in text.split(","):
        step = 1
        if "/" in part:
            part, step_text = part.split("/", 1)
            if not step_text.isdigit() or int(step_text) < 1:
                raise ValueError(f"{name}: bad step {step_text!r}")
            step = int(step_text)
        if part == "*":
            start, end = low, high
        elif "-" in part:
            a, b = part.split("-", 1)
            if not (a.isdigit() and b.isdigit()):
                raise ValueError(f"{name}: bad range {part!r}")
            start, end = int(a), int(b)
        elif part.isdigit():
            start = end = int(part)
            if step != 1:
                end = high
        else:
            raise ValueError(f"{name}: {part!r} is not a number, range or *")
        if not (low <= start <= end <= high):
            raise ValueError(f"{name}: {part!r} outside {low}-{high}")
        values.update(range(start, end + 1, step))
    return frozenset(values)


@dataclass(frozen=True, slots=True)
class CronSchedule:
    minutes: frozenset[int]
    hours: frozenset[int]
    days: frozenset[int]
    months: frozenset[int]
    weekdays: frozenset[int]  # 0 = Sunday (7 is read as 0)
    any_day: bool
    any_weekday: bool

    @classmethod
    def parse(cls, text: str) -> CronSchedule:
        parts = text.split()
        if len(parts) != 5:
            raise ValueError(f"a cron schedule has 5 fields, {text!r} has {len(parts)}")
        fields = [_field(p, *spec) for p, spec in zip(parts, _FIELDS, strict=True)]
        weekdays = frozenset(0 if d == 7 else d for d in fields[4])
        return cls(
            fields[0], fields[1], fields[2], fields[3], weekdays, parts[2] == "*", parts[4] == "*"
        )

    def _day_matches(self, at: datetime) -> bool:
        day = at.day in self.days
        weekday = (at.isoweekday() % 7) in self.weekdays
        if self.any_day or self.any_weekday:
            return day and weekday
        return day or weekday

    def previous(self, at: datetime) -> datetime:
        """The latest firing time at or before `at` (UTC, whole minutes)."""
        t = at.astimezone(UTC).replace(second=0, microsecond=0)
        limit = t - timedelta(days=_SEARCH_DAYS)
        while t > limit:
            if t.month not in self.months or not self._day_matches(t):
                t = t.replace(hour=23, minute=59) - timedelta(days=1)
                continue
            if t.hour not in self.hours:
                t = t.replace(minute=59) - timedelta(hours=1)
                continue
            if t.minute in self.minutes:
                return t
            t -= timedelta(minutes=1)
        raise ValueError("the schedule never fires")

    def next(self, at: datetime) -> datetime:
        """The first firing time strictly after `at` (UTC, whole minutes)."""
        t = at.astimezone(UTC).replace(second=0, microsecond=0) + timedelta(minutes=1)
        limit = t + timedelta(days=_SEARCH_DAYS)
        while t < limit:
            if t.month not in self.months or not self._day_matches(t):
                t = t.replace(hour=0, minute=0) + timedelta(days=1)
                continue
            if t.hour not in self.hours:
                t = t.replace(minute=0) + timedelta(hours=1)
                continue
            if t.minute in self.minutes:
                return t
            t += timedelta(minutes=1)
        raise ValueError("the schedule never fires")
