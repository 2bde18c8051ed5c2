# fish completion for sudoctl (installed as
# <datadir>/fish/vendor_completions.d/sudoctl.fish). Profile and technique
# ids are asked from the daemon (`sudoctl techniques`).

function __sudoctl_ids
    set -l sock
    set -l words (commandline -opc)
    for i in (seq (count $words))
        switch $words[$i]
            case --system
                set sock --system
            case --socket
                set sock --socket $words[(math $i + 1)]
        end
    end
    if test "$argv[1]" = techniques
        sudoctl $sock --no-autostart --timeout 2 --color=never techniques --all 2>/dev/null | awk 'NR > 1 { print $2 }'
    else
        sudoctl $sock --no-autostart --timeout 2 --color=never status 2>/dev/null | sed -n 's/^profiles: \[\(.*\)\]$/\1/p' | tr -d '"' | tr ',' '\n'
    end
end

set -l commands solve rate explain hint trace generate techniques status reload stop
complete -c sudoctl -f -n "not __fish_seen_subcommand_from $commands" -a solve -d 'solution and whether it is unique'
complete -c sudoctl -f -n "not __fish_seen_subcommand_from $commands" -a rate -d 'ER/EP/ED difficulty'
complete -c sudoctl -f -n "not __fish_seen_subcommand_from $commands" -a explain -d 'every step'
complete -c sudoctl -f -n "not __fish_seen_subcommand_from $commands" -a hint -d 'the next step'
complete -c sudoctl -f -n "not __fish_seen_subcommand_from $commands" -a trace -d 'what follows from an assumption'
complete -c sudoctl -f -n "not __fish_seen_subcommand_from $commands" -a generate -d 'puzzles made to order'
complete -c sudoctl -f -n "not __fish_seen_subcommand_from $commands" -a techniques -d 'the techniques of a profile'
complete -c sudoctl -f -n "not __fish_seen_subcommand_from $commands" -a status -d "the daemon's status"
complete -c sudoctl -f -n "not __fish_seen_subcommand_from $commands" -a reload -d 'make the daemon re-read its config'
complete -c sudoctl -f -n "not __fish_seen_subcommand_from $commands" -a stop -d 'make the daemon drain and exit'

complete -c sudoctl -l socket -r -F -d 'daemon socket'
complete -c sudoctl -l system -d 'the system-wide daemon'
complete -c sudoctl -l timeout -x -d 'request deadline in seconds'
complete -c sudoctl -l json -d 'one JSON object per puzzle'
complete -c sudoctl -l html -d 'an HTML page drawing each step'
complete -c sudoctl -l profile -x -a '(__sudoctl_ids profiles)' -d 'technique profile'
complete -c sudoctl -l no-guess -d 'no trial and error'
complete -c sudoctl -l technique -x -a '(__fish_complete_list , "__sudoctl_ids techniques")' -d 'only these techniques'
complete -c sudoctl -l techniques -x -a '(__fish_complete_list , "__sudoctl_ids techniques")' -d 'only these techniques'
complete -c sudoctl -l all -d 'every step; techniques: every loaded one'
complete -c sudoctl -l grid -d 'explain: the candidate grid before each step'
complete -c sudoctl -l trace -d 'explain: also the backtracking trace'
complete -c sudoctl -l passes -d "explain: the singles program's passes"
complete -c sudoctl -l trace-links -d "each step's chains as consequence lines"
complete -c sudoctl -l max-trace -x -d 'trace events at most'
complete -c sudoctl -l assume -x -d 'trace: the assumption'
complete -c sudoctl -l als -d 'trace: ALS links'
complete -c sudoctl -l logic -d 'solve: by techniques'
complete -c sudoctl -s f -l file -r -F -d 'read puzzles from FILE'
complete -c sudoctl -l no-autostart -d 'do not start a per-user sudokud'
complete -c sudoctl -l progress -d 'progress bar'
complete -c sudoctl -l no-progress -d 'no progress bar'
complete -c sudoctl -l chunk -x -d 'puzzles per request'
complete -c sudoctl -l window -x -d 'requests in flight'
complete -c sudoctl -l lang -x -a 'en eo ja nl hi' -d 'language'
complete -c sudoctl -l format -x -a 'forum hodoku' -d 'explain: one line per step'
complete -c sudoctl -l color -x -a 'auto always never' -d 'colour'
complete -c sudoctl -l colour -x -a 'auto always never' -d 'colour'
complete -c sudoctl -s h -l help -d 'usage'
complete -c sudoctl -l version -d 'version'
complete -c sudoctl -l count -x -d 'generate: how many puzzles'
complete -c sudoctl -l er -x -d 'generate: SE rating range'
complete -c sudoctl -l ep -x -d "generate: SE pearl range"
complete -c sudoctl -l ed -x -d "generate: SE diamond range"
complete -c sudoctl -l level -x -a 'easy medium hard unfair extreme' -d 'generate: HoDoKu level'
complete -c sudoctl -l needs -x -a '(__fish_complete_list , "__sudoctl_ids techniques")' -d 'generate: the path uses these'
complete -c sudoctl -l hardest -x -a '(__sudoctl_ids techniques)' -d 'generate: the hardest step'
complete -c sudoctl -l pattern -d 'generate: --needs right after simple steps'
complete -c sudoctl -l symmetry -x -a 'none rotational rot90 mirror flip biaxial diagonal antidiagonal dihedral' -d 'generate: symmetry'
complete -c sudoctl -l clues -x -d 'generate: number of clues'
complete -c sudoctl -l minimal -d 'generate: no clue can be taken away'
complete -c sudoctl -l givens -x -d 'generate: the clue cells'
complete -c sudoctl -l seed -x -d 'generate: seed'
complete -c sudoctl -l max-seconds -x -d 'generate: budget per puzzle'
complete -c sudoctl -l max-tries -x -d 'generate: candidates per puzzle'
