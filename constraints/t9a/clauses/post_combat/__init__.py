"""The clauses of the Post-Combat Pivot (RULES §2.11.6, §2.8.6; A13, A20; docs/rules.md §11.9).

A unit that was Engaged this round and no longer is (No More Foes, seed 001) "may perform a
Post-combat Pivot": a Pivot (RULES §2.4.1-3) and nothing else.  It is not a Move Manoeuvre,
so the Move Manoeuvres' Valid Final Position does not bind it; its Unit Spacing is A13's.
"""
