#!/usr/bin/env bash
# Measures the ratings of the computer's players (levels 1..10 and the classic AIs) that
# rated games against the computer use (crates/server/src/rating/computer.rs, docs/ratings.md).
#
#   scripts/computer-ratings.sh [OUT_DIR] [PAIR ...]
#
# The players stand in a ladder, weakest first; each plays its neighbour with `wuzi match`
# on the 26 canonical openings (both colours; from the first again past 52 games), at the
# time each has in the server (levels are capped by their own node and time budgets;
# level 10 gets the server's 5 s). Each pair's report goes to OUT_DIR/A-vs-B.txt; a pair
# whose report exists is not played again, so an interrupted run resumes. Name pairs
# (e.g. level9-vs-level10) to play only those; the table is printed from every report present.
#
# The ratings: the weakest player is anchored at 800 (a beginner); each next one is the
# previous minus the pair's Elo difference. A one-sided pair (no game won by the weaker)
# has an infinite estimate: its 95% bound nearest zero stands in, marked `*`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-target/computer-ratings}
shift || true
mkdir -p "$out"
wuzi=${WUZI:-$root/target/release/wuzi}
[ -x "$wuzi" ] || (cd "$root" && cargo build --release -p wuzi)
openings=${OPENINGS:-/work/shared/data/openings/canonical3_15_offset.txt}
[ -f "$openings" ] || openings=$root/../shared/data/openings/canonical3_15_offset.txt
anchor=800

# The ladder, weakest first, and the games each pair plays (more where the pair is close
# and cheap; the top pairs cost minutes a game).
ladder=(level1 level2 level3 level4 classic-greedy level5 classic-rank classic-tuple
    level6 level7 level8 level9 level10)
games=(100 100 100 100 100 100 100 100 60 60 40 16)

want() {
    [ $# -eq 1 ] && return 0
    local p
    for p in "${@:2}"; do [ "$p" = "$1" ] && return 0; done
    return 1
}

for i in "${!games[@]}"; do
    a=${ladder[$i]} b=${ladder[$((i + 1))]} n=${games[$i]}
    name="$a-vs-$b"
    report="$out/$name.txt"
    if [ -s "$report" ] || ! want "$name" "$@"; then continue; fi
    echo "== $name: $n games" >&2
    "$wuzi" match "$a" "$b" --time-per-move 5000 --games "$n" --openings "$openings" \
        --quiet >"$report.part"
    mv "$report.part" "$report"
done

# The table: cumulative ratings down the ladder.
printf '%-16s %8s  %-32s %s\n' player rating "against the previous (W-D-L, Elo 95%)" report
rating=$anchor
printf '%-16s %8s\n' "${ladder[0]}" "$rating"
for i in "${!games[@]}"; do
    a=${ladder[$i]} b=${ladder[$((i + 1))]}
    report="$out/$a-vs-$b.txt"
    [ -s "$report" ] || { printf '%-16s %8s  (not measured)\n' "$b" "?"; continue; }
    # "Elo difference (a - b): E (95% interval LO .. HI)"; the row of a: games wins draws losses
    line=$(grep '^Elo difference' "$report")
    read -r e lo hi < <(echo "$line" | sed -E 's/.*: ([^ ]+) \(95% interval ([^ ]+) \.\. ([^)]+)\).*/\1 \2 \3/')
    wdl=$(awk -v p="$a" '$1 == p { print $3 "-" $4 "-" $5; exit }' "$report")
    mark=""
    case "$e" in
    -inf) e=$hi mark="*" ;;
    +inf | inf) e=$lo mark="*" ;;
    esac
    rating=$((rating - ${e#+}))
    printf '%-16s %8s  %-32s %s\n' "$b" "$rating$mark" "$wdl, ${e} (${lo} .. ${hi})" "$report"
done
