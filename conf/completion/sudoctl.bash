# bash completion for sudoctl (installed as
# <datadir>/bash-completion/completions/sudoctl). Commands and options are
# listed here; profile and technique ids are asked from the daemon
# (`sudoctl techniques`), so they are the ones it has loaded.

_sudoctl_ask()
{
    # $1: techniques | profiles; quiet and quick: no autostart, 2 s at most
    local sock=() i
    for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
        case ${COMP_WORDS[i]} in
        --socket) sock=(--socket "${COMP_WORDS[i + 1]}") ;;
        --socket=*) sock=("${COMP_WORDS[i]}") ;;
        --system) sock=(--system) ;;
        esac
    done
    if [[ $1 == techniques ]]; then
        sudoctl "${sock[@]}" --no-autostart --timeout 2 --color=never techniques --all 2>/dev/null |
            awk 'NR > 1 { print $2 }'
    else
        sudoctl "${sock[@]}" --no-autostart --timeout 2 --color=never status 2>/dev/null |
            sed -n 's/^profiles: \[\(.*\)\]$/\1/p' | tr -d '"' | tr ',' '\n'
    fi
}

_sudoctl()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local commands="solve rate explain hint trace generate techniques status reload stop"
    local options="--socket --system --timeout --json --html --profile --no-guess --technique
        --techniques --all --grid --trace --passes --trace-links --max-trace --assume --als --logic
        --file -f --no-autostart --progress --no-progress --chunk --window --color --colour --lang --format
        --help -h --version --count --er --ep --ed --level --needs --hardest --pattern
        --symmetry --clues --minimal --givens --seed --max-seconds --max-tries"
    case $prev in
    --socket)
        COMPREPLY=($(compgen -f -- "$cur"))
        return
        ;;
    -f | --file)
        COMPREPLY=($(compgen -f -- "$cur"))
        return
        ;;
    --profile)
        COMPREPLY=($(compgen -W "$(_sudoctl_ask profiles)" -- "$cur"))
        return
        ;;
    --level)
        COMPREPLY=($(compgen -W "easy medium hard unfair extreme" -- "$cur"))
        return
        ;;
    --symmetry)
        COMPREPLY=($(compgen -W "none rotational rot90 mirror flip biaxial diagonal antidiagonal dihedral" -- "$cur"))
        return
        ;;
    --hardest)
        COMPREPLY=($(compgen -W "$(_sudoctl_ask techniques)" -- "$cur"))
        return
        ;;
    --technique | --techniques | --needs)
        # a comma-separated list: complete the last id
        local head=${cur%,*} last=${cur##*,} ids
        ids=$(_sudoctl_ask techniques)
        if [[ $cur == *,* ]]; then
            COMPREPLY=($(compgen -P "$head," -W "$ids" -- "$last"))
        else
            COMPREPLY=($(compgen -W "$ids" -- "$cur"))
        fi
        return
        ;;
    --lang)
        COMPREPLY=($(compgen -W "en eo ja nl hi" -- "$cur"))
        return
        ;;
    --format)
        COMPREPLY=($(compgen -W "forum hodoku" -- "$cur"))
        return
        ;;
    --timeout | --chunk | --window | --max-trace | --assume | --count | --er | --ep | --ed | \
        --clues | --givens | --seed | --max-seconds | --max-tries)
        return
        ;;
    esac
    if [[ $cur == --color=* || $cur == --colour=* ]]; then
        COMPREPLY=($(compgen -P "${cur%%=*}=" -W "auto always never" -- "${cur#*=}"))
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return
    fi
    local i
    for ((i = 1; i < COMP_CWORD; i++)); do
        [[ " $commands " == *" ${COMP_WORDS[i]} "* ]] && return # puzzles follow
    done
    COMPREPLY=($(compgen -W "$commands" -- "$cur"))
}

complete -o default -F _sudoctl sudoctl
