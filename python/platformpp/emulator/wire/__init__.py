"""Builders of the platform's JSON objects that more than one area shows, one module per object."""
