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
openings=${OPENINGS:-$root/testdata/openings/canonical3_15_offset.txt}
anchor=800

# The levels stand in a ladder, each against the next; the games each pair plays (more
# where the pair is close and cheap; the top pairs cost minutes a game).
ladder=(level1 level2 level3 level4 level5 level6 level7 level8 level9 level10)
games=(100 100 100 100 300 260 60 40 16)
# The classic AIs each play the levels nearest them; their ratings are fitted to those games
# with the levels' ratings fixed (maximum likelihood, draws half).
classics=(classic-greedy classic-rank classic-tuple)
anchors=(level4 level5 level6)
anchor_games=60

want() {
    [ $# -eq 1 ] && return 0
    local p
    for p in "${@:2}"; do [ "$p" = "$1" ] && return 0; done
    return 1
}

play() { # A B GAMES
    local name="$1-vs-$2" report="$out/$1-vs-$2.txt"
    if [ -s "$report" ] || ! want "$name" "${pairs[@]}"; then return 0; fi
    echo "== $name: $3 games" >&2
    "$wuzi" match "$1" "$2" --time-per-move 5000 --games "$3" --openings "$openings" \
        --quiet >"$report.part"
    mv "$report.part" "$report"
}

pairs=("$@")
for i in "${!games[@]}"; do
    play "${ladder[$i]}" "${ladder[$((i + 1))]}" "${games[$i]}"
done
for c in "${classics[@]}"; do
    for l in "${anchors[@]}"; do play "$c" "$l" "$anchor_games"; done
done

# "Elo difference (a - b): E (95% interval LO .. HI)" -> "E LO HI"; the row of a: W-D-L.
elo() { sed -nE 's/^Elo difference.*: ([^ ]+) \(95% interval ([^ ]+) \.\. ([^)]+)\).*/\1 \2 \3/p' "$1"; }
wdl() { awk -v p="$2" '$1 == p { print $3, $4, $5; exit }' "$1"; }

# The levels: cumulative ratings down the ladder.
declare -A rating
printf '%-16s %8s  %-34s %s\n' player rating "games (W-D-L of the first), Elo 95%" report
rating[${ladder[0]}]=$anchor
printf '%-16s %8s\n' "${ladder[0]}" "$anchor"
r=$anchor
for i in "${!games[@]}"; do
    a=${ladder[$i]} b=${ladder[$((i + 1))]}
    report="$out/$a-vs-$b.txt"
    if [ ! -s "$report" ] || [ -n "${broken:-}" ]; then
        # Everything above a missing pair is unknown.
        broken=1
        printf '%-16s %8s  (not measured)\n' "$b" "?"
        continue
    fi
    read -r e lo hi < <(elo "$report")
    read -r w d l < <(wdl "$report" "$a")
    mark=""
    case "$e" in
    -inf) e=$hi mark="*" ;;
    +inf | inf) e=$lo mark="*" ;;
    esac
    r=$((r - ${e#+}))
    rating[$b]=$r
    printf '%-16s %8s  %-34s %s\n' "$b" "$r$mark" "$a $w-$d-$l, $e ($lo .. $hi)" "$report"
done

# The classic AIs: the rating that makes their games against the levels most likely.
for c in "${classics[@]}"; do
    data=""
    for l in "${anchors[@]}"; do
        report="$out/$c-vs-$l.txt"
        [ -s "$report" ] && [ -n "${rating[$l]:-}" ] || continue
        read -r w d l2 < <(wdl "$report" "$c")
        data+="${rating[$l]} $w $d $l2 "
    done
    [ -n "$data" ] || { printf '%-16s %8s  (not measured)\n' "$c" "?"; continue; }
    echo "$data" | awk -v name="$c" '{
        n = NF / 4
        best = -1e300
        for (r = 0; r <= 3000; r++) {
            ll[r] = 0
            for (i = 0; i < n; i++) {
                opp = $(4 * i + 1); s = $(4 * i + 2) + $(4 * i + 3) / 2; f = $(4 * i + 4) + $(4 * i + 3) / 2
                p = 1 / (1 + 10 ^ ((opp - r) / 400))
                ll[r] += s * log(p) + f * log(1 - p)
            }
            if (ll[r] > best) { best = ll[r]; at = r }
        }
        lo = at; while (lo > 0 && ll[lo] > best - 1.92) lo--
        hi = at; while (hi < 3000 && ll[hi] > best - 1.92) hi++
        games = ""
        for (i = 0; i < n; i++) games = games sprintf("%s%d-%d-%d", i ? ", " : "", $(4 * i + 2), $(4 * i + 3), $(4 * i + 4))
        printf "%-16s %8d  %-34s fitted to the anchors\n", name, at, games " (" lo " .. " hi ")"
    }'
done
