"""An independent reference referee for the Move Manoeuvres, and its comparison with the
exact checker (constraints.t9a.checker.check_move) on random moves and boundary scans."""
