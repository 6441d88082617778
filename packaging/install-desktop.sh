#!/usr/bin/env bash
# Install (or remove) Context Center's desktop integration for the current user:
# the .desktop entry, the AppStream metainfo and the icons, in the XDG places
# under $XDG_DATA_HOME (default ~/.local/share). Nothing is written elsewhere and
# nothing needs root.
#
# Works from two places:
#   - the source tree:   packaging/install-desktop.sh
#     (files from packaging/linux/ and resources/icons/; the program is the built
#      bundle dist/context-center/context-center if it exists, else `context-center`
#      found on PATH)
#   - the built bundle:  dist/context-center/install-desktop.sh
#     (files from the bundle's share/; the program is the bundle's own executable,
#      so move the folder where you want to keep it first, then run this)
#
# Usage: install-desktop.sh [--exec PATH] [--dry-run]
#        install-desktop.sh --uninstall
set -euo pipefail

APP_ID="io.github.contextcenter.ContextCenter"
ICON_SIZES=(16 24 32 48 64 128 256 512)

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    cat <<EOF

Options:
  --exec PATH   program the menu entry starts (default: see above)
  --uninstall   remove what an install put in place
  --dry-run     print what would be done, change nothing
  -h, --help    this text
EOF
}

mode=install
exec_path=""
dry_run=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --exec) [[ $# -ge 2 ]] || { echo "install-desktop: --exec needs a path" >&2; exit 2; }
                exec_path="$2"; shift 2 ;;
        --exec=*) exec_path="${1#--exec=}"; shift ;;
        --uninstall) mode=uninstall; shift ;;
        --dry-run) dry_run=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install-desktop: unknown argument: $1 (try --help)" >&2; exit 2 ;;
    esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Locate the files to install and the default program.
if [[ -f "$here/share/applications/$APP_ID.desktop" ]]; then
    # inside a built bundle
    src_desktop="$here/share/applications/$APP_ID.desktop"
    src_metainfo="$here/share/metainfo/$APP_ID.metainfo.xml"
    src_icons="$here/share/icons/hicolor"
    default_exec="$here/context-center"
elif [[ -f "$here/linux/$APP_ID.desktop" ]]; then
    # in the source tree
    src_desktop="$here/linux/$APP_ID.desktop"
    src_metainfo="$here/linux/$APP_ID.metainfo.xml"
    src_icons="$(cd "$here/.." && pwd)/resources/icons/hicolor"
    if [[ -x "$here/../dist/context-center/context-center" ]]; then
        default_exec="$(cd "$here/../dist/context-center" && pwd)/context-center"
    else
        default_exec="$(command -v context-center || true)"
    fi
else
    echo "install-desktop: cannot find $APP_ID.desktop next to this script" >&2
    exit 1
fi

data_home="${XDG_DATA_HOME:-$HOME/.local/share}"
if [[ "$data_home" != /* ]]; then
    # The XDG spec says relative paths are invalid and must be ignored.
    data_home="$HOME/.local/share"
fi
apps_dir="$data_home/applications"
metainfo_dir="$data_home/metainfo"
icons_dir="$data_home/icons/hicolor"

run() {
    if [[ $dry_run -eq 1 ]]; then
        printf '+'; printf ' %q' "$@"; printf '\n'
    else
        "$@"
    fi
}

refresh_caches() {
    if command -v update-desktop-database >/dev/null 2>&1; then
        run update-desktop-database -q "$apps_dir" || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [[ -d "$icons_dir" ]]; then
        run gtk-update-icon-cache -q -f -t "$icons_dir" || true
    fi
}

installed_files() {
    echo "$apps_dir/$APP_ID.desktop"
    echo "$metainfo_dir/$APP_ID.metainfo.xml"
    echo "$icons_dir/scalable/apps/$APP_ID.svg"
    local size
    for size in "${ICON_SIZES[@]}"; do
        echo "$icons_dir/${size}x${size}/apps/$APP_ID.png"
    done
}

if [[ $mode == uninstall ]]; then
    removed=0
    while IFS= read -r f; do
        if [[ -e "$f" ]]; then
            run rm -f -- "$f"
            removed=$((removed + 1))
        fi
    done < <(installed_files)
    refresh_caches
    echo "install-desktop: removed $removed file(s) from $data_home"
    exit 0
fi

# --- install ---
exec_path="${exec_path:-$default_exec}"
if [[ -z "$exec_path" ]]; then
    cat >&2 <<EOF
install-desktop: no program to start. Build the bundle (packaging/build), install the
package so that \`context-center\` is on PATH, or pass --exec /path/to/context-center.
EOF
    exit 1
fi
if [[ "$exec_path" != /* ]]; then
    exec_path="$(cd "$(dirname "$exec_path")" && pwd)/$(basename "$exec_path")"
fi
if [[ ! -x "$exec_path" ]]; then
    echo "install-desktop: $exec_path is not an executable file" >&2
    exit 1
fi
# The Desktop Entry spec reserves many characters in Exec; allow a plain path,
# quoting it when it holds spaces, and refuse anything that would need escaping.
if [[ ! "$exec_path" =~ ^[A-Za-z0-9/._+,:@\ -]+$ ]]; then
    echo "install-desktop: unsupported characters in program path: $exec_path" >&2
    echo "  (move it to a path of letters, digits, spaces and /._+,:@-)" >&2
    exit 1
fi
if [[ "$exec_path" == *" "* ]]; then
    exec_value="\"$exec_path\""
else
    exec_value="$exec_path"
fi

for f in "$src_desktop" "$src_metainfo" "$src_icons/scalable/apps/$APP_ID.svg"; do
    [[ -f "$f" ]] || { echo "install-desktop: missing $f" >&2; exit 1; }
done

run mkdir -p "$apps_dir" "$metainfo_dir" "$icons_dir/scalable/apps"
tmp_desktop="$(mktemp)"
trap 'rm -f "$tmp_desktop"' EXIT
sed -e "s|^Exec=.*|Exec=$exec_value|" -e "s|^TryExec=.*|TryExec=$exec_path|" \
    "$src_desktop" >"$tmp_desktop"
run install -m 0644 "$tmp_desktop" "$apps_dir/$APP_ID.desktop"
run install -m 0644 "$src_metainfo" "$metainfo_dir/$APP_ID.metainfo.xml"
run install -m 0644 "$src_icons/scalable/apps/$APP_ID.svg" "$icons_dir/scalable/apps/$APP_ID.svg"
for size in "${ICON_SIZES[@]}"; do
    png="$src_icons/${size}x${size}/apps/$APP_ID.png"
    if [[ -f "$png" ]]; then
        run mkdir -p "$icons_dir/${size}x${size}/apps"
        run install -m 0644 "$png" "$icons_dir/${size}x${size}/apps/$APP_ID.png"
    fi
done
if [[ $dry_run -eq 0 ]] && command -v desktop-file-validate >/dev/null 2>&1; then
    desktop-file-validate "$apps_dir/$APP_ID.desktop" || \
        echo "install-desktop: warning: the installed entry does not validate" >&2
fi
refresh_caches
echo "install-desktop: installed $APP_ID for ${USER:-$(id -un)} into $data_home"
echo "install-desktop: the menu entry starts $exec_path"
