"""Op families: protocols (traits), shared preparation and generic composites."""
