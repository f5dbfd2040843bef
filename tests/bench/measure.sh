# SPDX-License-Identifier: Apache-2.0
# Sourced by run.sh: how a row of the benchmark table is measured, judged
# against its goal and summarised.
#
# A group of commands (ours, the peer, the bare reads of the same file) runs
# interleaved, round after round, so that a burst of load on a shared
# machine falls on all of them alike. Each command runs $runs times ($peer_runs
# for a peer) under /usr/bin/time; what is kept per command is the least wall
# time of its runs, and the user and system time and peak RSS of its run with
# the least CPU time (user + system): on a busy machine CPU time is the
# steadier figure, the wall time is what a user waits for. Ratios and goals
# use the wall time (the issue's unit); the CPU ratio is printed beside it.

declare -A CMD T_WALL T_USER T_SYS T_RSS T_FAIL
summary=()

# cmd LABEL ARGV...: a command to time (its stdout and stderr are discarded)
cmd() {
	local label=$1
	shift
	CMD[$label]="exec $(printf '%q ' "$@")"
}

# cmd_sh LABEL SCRIPT: a shell script to time, for pipelines and clean-ups
cmd_sh() { CMD[$1]=$2; }

calc() { awk "BEGIN { printf \"%s\", $1 }"; }
# quotient A / B, B taken as at least 0.01 (the resolution of time's seconds)
per() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%s", a / (b < 0.01 ? 0.01 : b) }'; }
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

time_once() {
	local label=$1 w u s m rc
	/usr/bin/time -o "$timefile" -f '%e %U %S %M' bash -c "${CMD[$label]}" >/dev/null 2>/dev/null
	rc=$?
	read -r w u s m < <(tail -n1 "$timefile")
	[ "$rc" = 0 ] || T_FAIL[$label]="exit $rc"
	if [ -z "${T_WALL[$label]:-}" ] || less "$w" "${T_WALL[$label]}"; then T_WALL[$label]=$w; fi
	if [ -z "${T_USER[$label]:-}" ] || less "$(calc "$u + $s")" "$(calc "${T_USER[$label]} + ${T_SYS[$label]}")"; then
		T_USER[$label]=$u T_SYS[$label]=$s T_RSS[$label]=$m
	fi
}

# interleave LABEL...: round robin; a label starting with "peer" runs $peer_runs times
interleave() {
	local r label
	for label in "$@"; do unset "T_WALL[$label]" "T_USER[$label]" "T_SYS[$label]" "T_RSS[$label]" "T_FAIL[$label]"; done
	for r in $(seq "$runs"); do
		for label in "$@"; do
			if [[ $label == peer* ]] && [ "$r" -gt "$peer_runs" ]; then continue; fi
			time_once "$label"
		done
	done
}

cpu() { calc "${T_USER[$1]} + ${T_SYS[$1]}"; }
mib() { echo $((${T_RSS[$1]} / 1024)); }

# "W s wall, U user + S sys, M MiB": one command's figures
figures() {
	local label=$1
	[ -n "$label" ] && [ -n "${T_WALL[$label]:-}" ] || { echo "not run"; return; }
	printf '%s s wall, %s user + %s sys, %s MiB%s' "${T_WALL[$label]}" "${T_USER[$label]}" "${T_SYS[$label]}" \
		"$(mib "$label")" "${T_FAIL[$label]:+ (FAILED: ${T_FAIL[$label]})}"
}

# show LABEL TEXT [BYTES]: one line of a row; with BYTES, the input rate too
show() {
	local label=$1 text=$2 bytes=${3:-}
	printf '  %-46s %s' "$text" "$(figures "$label")"
	[ -z "$bytes" ] || [ -z "${T_WALL[$label]:-}" ] || printf ', %s MB/s' "$(per "$bytes" "${T_WALL[$label]}" | awk '{ printf "%.0f", $1 / 1e6 }')"
	echo
}

# ratio A B: how many times faster A is than B, in wall and in CPU time
ratio() {
	printf '%.1fx (CPU %.1fx)' "$(per "${T_WALL[$2]}" "${T_WALL[$1]}")" "$(per "$(cpu "$2")" "$(cpu "$1")")"
}

# judge_speed OURS PEER X: whether OURS was at least X times faster than PEER
# (wall time), in MEASURED and MET; a peer stopped by its timeout gives a
# lower bound, a peer that failed otherwise gives no verdict
judge_speed() {
	local ours=$1 peer=$2 x=$3 r
	if [ -z "$peer" ]; then
		MEASURED="peer not run" MET="not judged (no peer)"
		return
	fi
	r=$(per "${T_WALL[$peer]}" "${T_WALL[$ours]}")
	MEASURED=$(ratio "$ours" "$peer")
	MET=$(less "$r" "$x" && echo no || echo yes)
	case ${T_FAIL[$peer]:-} in
	"") ;;
	"exit 124")
		MEASURED="more than $MEASURED (peer stopped after ${T_WALL[$peer]} s)"
		[ "$MET" = yes ] || MET="not judged (peer stopped)"
		;;
	*) MEASURED="peer failed (${T_FAIL[$peer]})" MET="not judged (peer failed)" ;;
	esac
}

# the faster bare read of the two (cat, read() into one buffer): its label
bare_floor() { if less "${T_WALL[bare-read]:-1e9}" "${T_WALL[bare-cat]:-1e9}"; then echo bare-read; else echo bare-cat; fi; }

# verdict WORK GOAL MEASURED MET OURS PEER BARE: print whether this run met
# the goal (MET: yes, no or why it could not be judged); keep a summary row
verdict() {
	local work=$1 goal=$2 measured=$3 met=$4
	printf '  goal: %s; this run: %s -> %s\n' "$goal" "$measured" \
		"$(case $met in yes) echo met ;; no) echo 'NOT met' ;; *) echo "$met" ;; esac)"
	summary+=("| $work | $5 | $6 | $7 | $measured | $goal | $met |")
}

# short LABEL: "W s (U+S cpu), M MiB" for the summary table
short() {
	[ -n "$1" ] && [ -n "${T_WALL[$1]:-}" ] || { echo "—"; return; }
	printf '%s s (%s cpu), %s MiB%s' "${T_WALL[$1]}" "$(cpu "$1")" "$(mib "$1")" "${T_FAIL[$1]:+, FAILED}"
}

# A warning when the machine was busier than its cores: then wall times, and
# the goals judged on them, say more about the other work than about ours.
load_warning() {
	awk -v cores="$(nproc)" '{ if ($2 > cores) printf "WARNING: load %s over the last 5 minutes on %d cores: wall times (and the goals judged on them) are not to be trusted here; compare the CPU figures\n", $2, cores }' /proc/loadavg
}

print_summary() {
	echo
	echo "## Summary ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), best of $runs, peers best of $peer_runs)"
	echo
	local warning
	warning=$(load_warning)
	[ -z "$warning" ] || printf '%s\n\n' "$warning"
	echo "| work | ours: wall (user+sys CPU), peak RSS | peer | bare read of the input | this run | goal | met |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s\n' "${summary[@]}"
}
