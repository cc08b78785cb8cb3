"""Who may do what in the review queue (docs/spec.md §Review queue), without any I/O.

The Redis scripts enforce the same rule atomically (streams/review/lua.py `may_act`);
this module is the readable statement of it, used by the API before it asks Redis and by
the tests that check the two agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundwire.topics.vocab import ReviewRole


@dataclass(frozen=True, slots=True)
class Reviewer:
    """An authenticated caller. Every field comes from the verified credential, never
    from the request: the owner identity of a claim is (tenant_id, user_id)."""

    tenant_id: str
    user_id: str
    admin: bool = False  # holds the configured tenant-admin role (of its own tenant only)

    @property
    def role(self) -> ReviewRole:
        return ReviewRole.TENANT_ADMIN if self.admin else ReviewRole.OWNER


def role_for(reviewer: Reviewer, tenant_id: str, owner: str) -> ReviewRole | None:
    """In which capacity `reviewer` may view, approve or reject a claim of `owner` in
    `tenant_id`, or None. Another tenant is never reachable, not even by an admin; a claim
    without a user_id ("") has no owner who could sign in, so only an admin reaches it."""
    if tenant_id != reviewer.tenant_id:
        return None
    if owner and owner == reviewer.user_id:
        return ReviewRole.OWNER
    if reviewer.admin:
        return ReviewRole.TENANT_ADMIN
    return None


def may_list(reviewer: Reviewer, owner: str | None) -> bool:
    """Anyone may list their own queue; another owner's queue, or the whole tenant's
    (`owner` None with the admin role asking), only a tenant admin."""
    if owner is None or owner == reviewer.user_id:
        return True
    return reviewer.admin
