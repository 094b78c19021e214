"""The main screen's regions, one module each: the conversation (chat_view, drawing each block with
blocks), the sidebar, the prompt (prompt_box), the status bar. Views read the model only; what they
report (keys, clicks, scrolls) goes to the app as Textual messages."""
