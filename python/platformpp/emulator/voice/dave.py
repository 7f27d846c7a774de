"""The voice gateway's side of DAVE: MLS delivery service and external sender for one call.

It keeps what the protocol says the gateway keeps (group id, epoch, each member's leaf index), gathers
key packages, proposes Add/Remove as the external sender, picks the first valid commit of an epoch,
relays it (op 29) and the welcomes (op 30), runs transitions (ops 21-24) and the recovery from invalid
commits or welcomes (op 31). It never holds a group secret: it cannot decrypt media.

Everything runs on the voice service's event loop; `members` are the call's participants, each with
`user_id`, `max_dave`, `dave_ready` (it has its Session Description), `send(op, d)` and
`send_binary(op, payload)`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Callable, Iterable, Protocol

from . import mls_wire as mls
from .protocol import Op

log = logging.getLogger("platformpp.emulator.voice.dave")

DAVE_MAX_VERSION = 1
APPEND, REVOKE = 0, 1


class Member(Protocol):
    user_id: int
    max_dave: int
    dave_ready: bool

    def send(self, op: int, d: object) -> None: ...
    def send_binary(self, op: int, payload: bytes) -> None: ...


@dataclass
class _Proposal:
    ref: bytes
    message: bytes
    kind: int                 # mls.PROPOSAL_ADD or mls.PROPOSAL_REMOVE
    user_id: int
    recipients: set[int] = field(default_factory=set)


@dataclass
class _Transition:
    transition_id: int
    awaiting: set[int]
    notify: set[int]
    on_execute: Callable[[], None]
    timer: object = None


@dataclass
class DaveStats:
    commits_accepted: int = 0
    commits_rejected: int = 0
    invalid_reports: int = 0
    key_packages_rejected: int = 0
    transitions_executed: int = 0
    transitions_timed_out: int = 0
    last_rejection: str = ""


class DaveCall:
    def __init__(self, channel_id: int, external_sender: mls.ExternalSender, *,
                 members: Callable[[], Iterable[Member]], e2ee_required: Callable[[], bool],
                 call_later: Callable[[float, Callable[[], None]], object],
                 cancel: Callable[[object], None], transition_timeout: float) -> None:
        self.group_id = mls.u64(channel_id)
        self.external_sender = external_sender
        self._members = members
        self._e2ee_required = e2ee_required
        self._call_later = call_later
        self._cancel = cancel
        self._transition_timeout = transition_timeout
        self.version = 0
        self.epoch = 0                     # 0 while no group is established
        self.roster: dict[int, int] = {}   # user id -> leaf index in the established group
        self.leaf_keys: dict[int, bytes] = {}
        self.key_packages: dict[int, mls.KeyPackage] = {}
        self.proposals: list[_Proposal] = []
        self.transition: _Transition | None = None
        self._next_transition_id = 0
        self._stale: set[int] = set()      # members whose leaf is being replaced (op 31 recovery)
        self.stats = DaveStats()

    # ------------------------------------------------------------ helpers

    @property
    def established(self) -> bool:
        return self.epoch > 0

    def _connected(self) -> dict[int, Member]:
        return {m.user_id: m for m in self._members()}

    def _dave_members(self) -> dict[int, Member]:
        return {uid: m for uid, m in self._connected().items() if m.dave_ready and m.max_dave > 0}

    def _new_transition_id(self) -> int:
        self._next_transition_id = self._next_transition_id % 0xFFFF + 1   # 1..65535; 0 means "now"
        return self._next_transition_id

    def target_version(self) -> int:
        members = list(self._connected().values())
        if not members:
            return self.version
        lowest = min(min(m.max_dave, DAVE_MAX_VERSION) for m in members)
        if lowest == 0 and self._e2ee_required():
            return self.version or DAVE_MAX_VERSION
        return lowest

    def _reset_group(self) -> None:
        self.epoch = 0
        self.roster.clear()
        self.leaf_keys.clear()
        self.key_packages.clear()
        self.proposals.clear()
        self._stale.clear()

    # ------------------------------------------------------------ membership events

    def on_session_ready(self, member: Member) -> None:
        """`member` just received its Session Description, which announced `target_version()`."""
        target = self.target_version()
        if target != self.version and len(self._connected()) == 1:
            self.version = target          # the call's first participant sets the version, no transition
        if target != self.version:
            self._change_version(target)
            return
        if self.version > 0:
            member.send_binary(Op.DAVE_MLS_EXTERNAL_SENDER, self.external_sender.package())

    def on_leave(self, user_id: int) -> None:
        self.key_packages.pop(user_id, None)
        self._revoke_adds_for(user_id)
        if self.transition is not None:
            self.transition.awaiting.discard(user_id)
            self.transition.notify.discard(user_id)
            if not self.transition.awaiting:
                self._execute()
        target = self.target_version()
        if target != self.version:
            self._change_version(target)
            return
        if self.version == 0:
            return
        remaining = [uid for uid in self.roster if uid != user_id and uid in self._dave_members()]
        if user_id in self.roster and len(remaining) <= 1:
            self._sole_member_reset(remaining)
            return
        if not self.established and not self._dave_members():
            self._reset_group()
            return
        self._propose_pending()

    # ------------------------------------------------------------ client opcodes

    def on_key_package(self, member: Member, data: bytes) -> None:
        if self.version == 0:
            raise mls.MlsValidationError("key package: the call is not using the DAVE protocol")
        package = mls.parse_key_package(data)
        mls.validate_key_package(package, user_id=member.user_id)
        previous = self.key_packages.get(member.user_id)
        if previous is not None:
            self._revoke_adds_for(member.user_id)
        self.key_packages[member.user_id] = package
        if member.user_id in self.roster:
            self._stale.add(member.user_id)        # re-add with a new key package: remove the old leaf
        self._propose_pending()

    def on_commit_welcome(self, member: Member, data: bytes) -> None:
        try:
            self._accept_commit(member, data)
        except (mls.MlsDecodeError, mls.MlsValidationError) as exc:
            self.stats.commits_rejected += 1
            self.stats.last_rejection = str(exc)
            log.info("voice DAVE: commit from user %s dropped: %s", member.user_id, exc)

    def on_transition_ready(self, member: Member, transition_id: int) -> None:
        if self.transition is not None and self.transition.transition_id == transition_id:
            self.transition.awaiting.discard(member.user_id)
            if not self.transition.awaiting:
                self._execute()

    def on_invalid_commit_welcome(self, member: Member, transition_id: int) -> None:
        """Op 31: the member could not process a commit or welcome. Remove it (it is pending again) and
        re-add it when its new key package arrives."""
        self.stats.invalid_reports += 1
        self.key_packages.pop(member.user_id, None)
        self._revoke_adds_for(member.user_id)
        if self.transition is not None:
            self.transition.awaiting.discard(member.user_id)
            if not self.transition.awaiting:
                self._execute()
        if member.user_id in self.roster:
            others = [uid for uid in self.roster if uid != member.user_id and uid in self._dave_members()]
            if not others:
                self._reset_group()
            else:
                self._stale.add(member.user_id)
        self._propose_pending()

    # ------------------------------------------------------------ proposals

    def _propose(self, kind: int, user_id: int, proposal: mls.Proposal, recipients: set[int]) -> None:
        message, ref = self.external_sender.proposal_message(self.group_id, self.epoch, proposal)
        self.proposals.append(_Proposal(ref, message, kind, user_id, set(recipients)))
        payload = bytes([APPEND]) + mls.opaque(message)
        members = self._dave_members()
        for uid in recipients:
            if uid in members:
                members[uid].send_binary(Op.DAVE_MLS_PROPOSALS, payload)

    def _revoke_adds_for(self, user_id: int) -> None:
        revoked = [p for p in self.proposals if p.kind == mls.PROPOSAL_ADD and p.user_id == user_id]
        if not revoked:
            return
        self.proposals = [p for p in self.proposals if p not in revoked]
        members = self._dave_members()
        for uid in set().union(*(p.recipients for p in revoked)):
            refs = [p.ref for p in revoked if uid in p.recipients]
            if uid in members and refs:
                payload = bytes([REVOKE]) + mls.opaque(b"".join(mls.opaque(r) for r in refs))
                members[uid].send_binary(Op.DAVE_MLS_PROPOSALS, payload)

    def _propose_pending(self) -> None:
        """Bring the proposals of the current epoch in line with who is connected and who is pending."""
        if self.version == 0 or self.transition is not None:
            return
        dave = self._dave_members()
        if self.established:
            group = [uid for uid in self.roster if uid in dave and uid not in self._stale]
            proposed_removes = {p.user_id for p in self.proposals if p.kind == mls.PROPOSAL_REMOVE}
            for uid, leaf in list(self.roster.items()):
                gone = uid not in dave or uid in self._stale
                if gone and uid not in proposed_removes:
                    self._propose(mls.PROPOSAL_REMOVE, uid, mls.Proposal(mls.PROPOSAL_REMOVE, removed=leaf),
                                  set(group))
            proposed_adds = {p.user_id for p in self.proposals if p.kind == mls.PROPOSAL_ADD}
            for uid, package in self.key_packages.items():
                if uid in dave and uid not in proposed_adds and (uid not in self.roster or uid in self._stale):
                    self._propose(mls.PROPOSAL_ADD, uid, mls.Proposal(mls.PROPOSAL_ADD, key_package=package),
                                  set(group))
            return
        # No group yet: every pending member gets the Add of every other pending member.
        pending = [uid for uid in self.key_packages if uid in dave]
        for uid in pending:
            existing = next((p for p in self.proposals if p.kind == mls.PROPOSAL_ADD and p.user_id == uid), None)
            others = {o for o in pending if o != uid}
            if existing is None:
                self._propose(mls.PROPOSAL_ADD, uid,
                              mls.Proposal(mls.PROPOSAL_ADD, key_package=self.key_packages[uid]), others)
            else:
                missing = others - existing.recipients
                payload = bytes([APPEND]) + mls.opaque(existing.message)
                for other in missing:
                    dave[other].send_binary(Op.DAVE_MLS_PROPOSALS, payload)
                existing.recipients |= missing

    # ------------------------------------------------------------ commits

    def _accept_commit(self, member: Member, data: bytes) -> None:
        if self.version == 0:
            raise mls.MlsValidationError("the call is not using the DAVE protocol")
        if self.transition is not None:
            raise mls.MlsValidationError(f"a commit for epoch {self.epoch - 1} already won; late commit")
        message, commit_bytes, welcome = mls.split_commit_welcome(data)
        commit = message.commit
        assert commit is not None
        if message.group_id != self.group_id:
            raise mls.MlsValidationError("commit.group_id: not this call's group")
        if message.epoch != self.epoch:
            raise mls.MlsValidationError(f"commit.epoch: {message.epoch}, the group is at {self.epoch}")
        if message.sender_type != mls.SENDER_MEMBER:
            raise mls.MlsValidationError("commit.sender: must be a member")
        expected_leaf = self.roster.get(member.user_id) if self.established else 0
        if expected_leaf is None or message.sender_index != expected_leaf:
            raise mls.MlsValidationError("commit.sender.leaf_index: not the sending member's leaf")
        if commit.inline_proposals:
            raise mls.MlsValidationError("commit.proposals: DAVE commits only reference proposals")
        delivered = {p.ref: p for p in self.proposals if member.user_id in p.recipients}
        if not commit.proposal_refs:
            raise mls.MlsValidationError("commit.proposals: must reference at least one proposal")
        if set(commit.proposal_refs) != set(delivered) or len(commit.proposal_refs) != len(delivered):
            raise mls.MlsValidationError("commit.proposals: must reference exactly the unrevoked proposals "
                                         "of this epoch")
        if self.established and commit.path_leaf is not None:
            known = self.leaf_keys.get(member.user_id)
            if known is not None and commit.path_leaf.signature_key != known:
                raise mls.MlsValidationError("commit.path.leaf_node: changes the committer's signature key")
        ordered = [delivered[ref] for ref in commit.proposal_refs]
        added = [p.user_id for p in ordered if p.kind == mls.PROPOSAL_ADD]
        removed = [p.user_id for p in ordered if p.kind == mls.PROPOSAL_REMOVE]
        added_refs = {self.key_packages[uid].ref: uid for uid in added}
        if added:
            if welcome is None:
                raise mls.MlsValidationError("welcome: required when the commit adds members")
            if not set(added_refs) <= welcome.member_refs():
                raise mls.MlsValidationError("welcome.secrets: does not welcome every added member")
        elif welcome is not None:
            raise mls.MlsValidationError("welcome: present but the commit adds nobody")

        # The new roster: removes first, then adds into the leftmost free leaves (RFC 9420 12.3).
        previous_members = set(self.roster) if self.established else {member.user_id}
        roster = dict(self.roster) if self.established else {member.user_id: 0}
        if not self.established:
            own = self.key_packages.get(member.user_id)
            if commit.path_leaf is not None:
                self.leaf_keys[member.user_id] = commit.path_leaf.signature_key
            elif own is not None:
                self.leaf_keys[member.user_id] = own.leaf_node.signature_key
        for uid in removed:
            roster.pop(uid, None)
            self.leaf_keys.pop(uid, None)
        for uid in added:
            taken = set(roster.values())
            leaf = next(i for i in range(len(taken) + 1) if i not in taken)
            roster[uid] = leaf
            self.leaf_keys[uid] = self.key_packages[uid].leaf_node.signature_key
        self.roster = roster
        self.epoch = message.epoch + 1
        self.stats.commits_accepted += 1
        for uid in added:
            self.key_packages.pop(uid, None)
            self._stale.discard(uid)
        if member.user_id in roster and member.user_id not in self._stale:
            self.key_packages.pop(member.user_id, None)   # the committer is in the group: package used up
        for uid in removed:
            self._stale.discard(uid)
        self.proposals.clear()

        transition_id = self._new_transition_id()
        members = self._dave_members()
        # Members re-added in this commit (op 31 recovery) get only the Welcome: their old state is gone.
        commit_to = {uid for uid in previous_members if uid in roster and uid in members and uid not in added}
        welcome_to = {uid for uid in added if uid in members}
        for uid in commit_to:
            members[uid].send_binary(Op.DAVE_MLS_ANNOUNCE_COMMIT_TRANSITION,
                                     mls.u16(transition_id) + commit_bytes)
        for uid in welcome_to:
            assert welcome is not None
            ref = next(r for r, u in added_refs.items() if u == uid)
            members[uid].send_binary(Op.DAVE_MLS_WELCOME, mls.u16(transition_id) + welcome.for_member(ref))
        self._begin_transition(transition_id, commit_to | welcome_to, commit_to | welcome_to, lambda: None)

    # ------------------------------------------------------------ transitions

    def _begin_transition(self, transition_id: int, awaiting: set[int], notify: set[int],
                          on_execute: Callable[[], None]) -> None:
        transition = _Transition(transition_id, set(awaiting), set(notify), on_execute)
        self.transition = transition
        transition.timer = self._call_later(self._transition_timeout, lambda: self._timeout(transition))
        if not transition.awaiting:
            self._execute()

    def _timeout(self, transition: _Transition) -> None:
        if self.transition is transition:
            self.stats.transitions_timed_out += 1
            self._execute()

    def _execute(self) -> None:
        transition = self.transition
        if transition is None:
            return
        self.transition = None
        if transition.timer is not None:
            self._cancel(transition.timer)
        members = self._connected()
        for uid in transition.notify:
            if uid in members:
                members[uid].send(Op.DAVE_EXECUTE_TRANSITION, {"transition_id": transition.transition_id})
        self.stats.transitions_executed += 1
        transition.on_execute()
        self._propose_pending()

    def _sole_member_reset(self, remaining: list[int]) -> None:
        """One member left in the group: it must not keep control of it. Both it and any still pending
        member start a new group (the pending member's key package stays valid)."""
        pending = {uid: kp for uid, kp in self.key_packages.items() if uid not in self.roster}
        self._reset_group()
        self.key_packages.update(pending)
        members = self._dave_members()
        for uid in remaining:
            members[uid].send(Op.DAVE_PREPARE_EPOCH, {"protocol_version": self.version, "epoch": 1})
            members[uid].send(Op.DAVE_PREPARE_TRANSITION, {"protocol_version": self.version, "transition_id": 0})

    def _change_version(self, target: int) -> None:
        """Downgrade to 0 (a member without DAVE joined, before E2EE is required) or upgrade/re-create."""
        if self.transition is not None:
            if self.transition.timer is not None:
                self._cancel(self.transition.timer)
            self.transition = None
        if target == 0:
            transition_id = self._new_transition_id()
            dave = self._dave_members()
            for m in dave.values():
                m.send(Op.DAVE_PREPARE_TRANSITION, {"protocol_version": 0, "transition_id": transition_id})

            self.version = 0
            self._reset_group()
            self._begin_transition(transition_id, set(dave), set(dave), lambda: None)
            return
        self.version = target
        self._reset_group()
        for m in self._dave_members().values():
            m.send_binary(Op.DAVE_MLS_EXTERNAL_SENDER, self.external_sender.package())
            m.send(Op.DAVE_PREPARE_EPOCH, {"protocol_version": target, "epoch": 1})
