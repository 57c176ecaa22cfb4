/// A short document of three sections, the end-to-end tests' usual one.
package let notes = """
# Intro
NeonSync shares reading positions across terminals.

# Usage
Start the server, then read.

- one
- two

# Details
The end.
"""
