"""Proofdesk's own helpers for Cairo hints, named as hint code imports them."""
