"""What the desktop app holds, one job each; windows are given the controllers they need, not the app.

- ``settings``: the settings as typed values, each with its own change signal;
- ``packs``: the installed packs and the one the window translates with (loaded by the worker);
- ``direction``: which way the window translates, and the decoding options that go with it;
- ``history``: saving finished translations, and telling once when that fails;
- ``documents``: documents queued for translation with the window's direction;
- ``screen_text``: a region of the screen chosen, and its text recognised off the GUI thread;
- ``api``: the local API while "Let other apps on this computer use Fanyi" is on;
- ``autostart``: the login entry, kept as the setting says.
"""
