"""The playground page: one HTML file, plain JavaScript and CSS (no build step)."""
