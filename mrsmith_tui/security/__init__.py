"""What crosses a trust boundary: sensitive paths, environment scrubbing, secret redaction and
terminal-text sanitising. Imports nothing of the program's upper floors."""
