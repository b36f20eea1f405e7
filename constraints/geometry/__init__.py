"""Plane geometry in inches, scalar and vectorised side by side."""
