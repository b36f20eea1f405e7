"""The status an answer's certificate justifies under the rules (optimizer.search.certify):
OPTIMAL within the tolerance of a bound over every way, FEASIBLE with the bound otherwise.

A search certifies each answer it finds (optimizer.search.more_wheels, then the polish); the
certificates made are kept by answer, so that the same answer has the same certificate, and a
certificate refines the boxes the last one left (for an answer no better) instead of starting
again (`_left_before`).  A certificate may be capped (EARLY_BOXES: an answer the search may
still better); asked for later with a larger cap, it is refined further from where it stopped.
"""

from __future__ import annotations

import weakref
from dataclasses import replace
from typing import Any

from optimizer.search.certify import MAX_BOXES, Boxes, Certificate, certify
from optimizer.search.clock import Clock
from optimizer.search.end_cut import FRONT_CUT, end_cut
from optimizer.search.objectives import Goal
from optimizer.search.pivot_cut import pivot_cut
from optimizer.search.request import SearchRequest
from optimizer.search.result import SearchResult

# The box cap of a certificate for an answer that is not the search's last (the options'
# answer, an Advance's refined wheel): the ways' search mostly betters it, and its time goes
# to that search, the final certificate and the polish (bench_random 30 and 108 proved where
# the wall clock stopped them; benchmarks/README.md, issue 31 fifth session).
EARLY_BOXES = 30_000
# The certificates made for a search's answers, by (value, the request's own goal, the front's
# reach used): the same key, the same certificate; a better answer's starts from the boxes
# the last one left (`_left_before`).
Key = tuple[float, bool, bool]
Certificates = dict[Key, Certificate]


_CUT: weakref.WeakKeyDictionary[SearchRequest, Any] = weakref.WeakKeyDictionary()


def relaxation_of(request: SearchRequest) -> Any:
    """The family's relaxation, an Advance's with its Pivots cut by the Pivot's own spacing
    clause (optimizer.search.pivot_cut): made once per request."""
    if request not in _CUT:
        _CUT[request] = pivot_cut(request.scenario, request.unit, request.clauses,
                                  request.relaxation)
    return _CUT[request]


def _left_before(certificates: Certificates | None, key: Key, goal: Goal) -> Boxes | None:
    """The boxes the last certificate of the request's own goal left, made for an answer no
    better than this one, with the front's reach or without as this one: a box settled for
    its target is settled for this one's, lower or the same, and every value bounds its
    box's legal ways whatever answer it was made for (the cut raises a box to its target
    only where no legal end in it beats that).  So this certificate refines them further
    instead of starting again (bench_random 30 and 112: the polished answer's certificate;
    the full cap after the capped one).  Not from a certificate without the front's reach
    for one with it (one whose cut never asked for the reach is kept as one with it too: its
    boxes are the same): the reach, escalated on the early one's boxes, left bench_random 60
    stuck (a middle at 0.66 against 2.49) where from nothing it closes after the polish."""
    value, own_goal, front = key
    if not own_goal or not certificates:  # face_point's goal of the answer's own: not
        return None                       # another's
    sign = -1.0 if goal.maximise else 1.0
    return next((c.left for (v, g, f), c in reversed(certificates.items())
                 if g and f == front and c.left is not None and not c.left.loose and
                 sign * v >= sign * value), None)


def _made_before(certificates: Certificates, key: Key) -> Certificate | None:
    """Past the limit, a certificate made before for another value of the same goal: its
    bound (the least over its boxes and the value it was made for, which is a legal way's)
    is no more than any legal way's value, whatever the answer now; it proves the answer
    only where that is within the tolerance of it."""
    value, own_goal, _ = key
    if not own_goal:  # a goal of the answer's own (face_point's): not another's
        return None
    return next((c for (v, g, _), c in certificates.items() if g and v != value), None)


def certified(request: SearchRequest, result: SearchResult, clock: Clock,
              certificates: Certificates | None = None, final: bool = False,
              capped: bool = False) -> SearchResult:
    """The answer's status under the rules: OPTIMAL within the tolerance of the bound over
    every way, FEASIBLE with the bound otherwise; no answer: NOT_FOUND for an INFEASIBLE
    family, else as it was.  `certificates` (by value) keeps the ones made before: the same
    value, the same certificate (it depends on the value only).  `final`: the answer is the
    search's last, and its certificate may use the front's reach (end_cut.FRONT_CUT);
    `capped`: with the early cap all the same (the polish may still better it), a later
    call with the full cap going on from where it stopped (`short`)."""
    relaxation = relaxation_of(request)
    assert relaxation is not None
    if result.value is None:  # its status follows from the family's claim
        return result
    goal = request.goal.bounding(result.verdict)  # face_point: ways facing away, if worse
    front = FRONT_CUT and final
    key: Key = (result.value, goal is request.goal, front)
    certificate = None if certificates is None else certificates.get(key)
    if certificate is None and certificates and clock.expired():
        certificate = _made_before(certificates, key)
    most = relaxation.max_boxes or MAX_BOXES
    cap = most if final and not capped else min(most, EARLY_BOXES)
    short = certificate is not None and certificate.cap < cap and not certificate.closed \
        and not certificate.stuck
    if certificate is None or (certificate.timed_out or short) and not clock.expired():
        # A relaxation may ask for more boxes than the default (a whfb7 move's has five
        # parameters per kind: constraints.whfb7.reach.MoveReach.max_boxes).
        deadline = clock.deadline  # (less the reserve kept for re-checking the answer)
        cut = end_cut(request.scenario, request.unit, request.manoeuvre, goal, result.value,
                      request.tolerance, deadline, relaxation if front else None)
        certificate = certify(goal, relaxation, result.value, request.tolerance,
                              max_boxes=cap,
                              deadline=deadline, cut=cut,
                              start=_left_before(certificates, key, goal))
        if certificates is not None:  # the last made, last (`_left_before`)
            certificates.pop(key, None)
            certificates[key] = certificate
            # The reach would change nothing (a certificate whose cap is smaller than one
            # asked for later is made again from where it stopped: `short`).
            if cut is None or not cut.asked_reach:
                certificates[key[:2] + (True,)] = certificate
    clock.fired |= certificate.timed_out
    result.stats.update({"certificate_boxes": certificate.boxes,
                         "certificate_closed": certificate.closed,
                         "certificate_reached": certificate.reached})
    proof = result.proof.bounded(certificate.bound, "any_wheels",
                                 certificate.proves(result.value, request.tolerance),
                                 request.tolerance)
    return replace(result, proof=proof, elapsed_s=clock.elapsed())
