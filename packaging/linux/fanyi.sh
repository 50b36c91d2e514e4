#!/bin/sh
# The `fanyi` of the Linux tarball and the AppImage (whose AppRun links here): it runs the PyInstaller
# executable beside it, fanyi-bin (the app names itself fanyi to Qt and in its messages whatever its file
# is called). A folder as the standard input (fanyi translate < folder) stops Python before any of Fanyi
# runs, with a four-line "Fatal Python error: init_sys_streams": said here in one line instead.
here="$(dirname "$(readlink -f "$0")")"
if [ -d /dev/stdin ]; then
    echo "fanyi: the input is a folder, not text: give the text as arguments, or a file on the standard input" >&2
    exit 2
fi
exec "$here/fanyi-bin" "$@"
