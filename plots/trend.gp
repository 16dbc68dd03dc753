# trend.gp: qsortbench's history chart, one cell's paired deltas over commits.
#
#   gnuplot -d -c trend.gp DATA OUTPUT FORMAT TITLE METRIC ALGORITHMS COMMITS STEP_X STEP_TEXT
#
# DATA       rows "x delta_pct delta_lo delta_hi states", one block (index) per candidate, as
#            src/analysis/report_trend.c writes them: x the run's place in commit order,
#            states 1 when the run's processes ran at separated speeds
# OUTPUT     the file to write; FORMAT is png or svg
# TITLE      the chart's title; METRIC what the delta is a delta of
# ALGORITHMS space-separated words naming the blocks; COMMITS the x axis' words, one a run
# STEP_X     the steps history detect found: x between the last run before and the first
#            after, one word each; STEP_TEXT their labels ("algorithm:+9.8%"), one word each
#
# A line per candidate with its 95% intervals as error bars, an open circle on runs with
# states, a dashed vertical line per step. Text arrives as ARGn strings and is never evaluated.

data = ARG1
nlines = words(ARG6)
ncommits = words(ARG7)
nsteps = words(ARG8)

W = 160 + ncommits * 26
W = W < 900 ? 900 : (W > 2400 ? 2400 : W)
H = 430
if (ARG3 eq "svg") {
    set terminal svg size W,H noenhanced font "sans,11" background rgb "white"
} else {
    set terminal pngcairo size W,H noenhanced font "sans,11" background rgb "white"
}
set output ARG2

set title ARG4 font ",13"
set ylabel sprintf("delta of %s, %%\n(positive = candidate slower)", ARG5)
set xrange [-0.5:ncommits - 0.5]
set xtics () rotate by 60 right font ",9"
do for [i=1:ncommits] {
    set xtics add (word(ARG7, i) i - 1)
}
set xzeroaxis linetype -1 linewidth 1.2
set grid ytics linecolor "gray70" linewidth 0.5 dashtype 3
set offsets 0, 0, graph 0.08, graph 0.12
set key outside right top vertical Left reverse samplen 2
set bmargin 5

do for [i=1:nsteps] {
    x = real(word(ARG8, i))
    set arrow i from first x, graph 0 to first x, graph 1 nohead dashtype 2 \
        linewidth 1.5 linecolor rgb "#aa1111"
    set label i word(ARG9, i) at first x, graph 0.98 offset 0.4, -0.2 left \
        textcolor rgb "#aa1111" font ",9"
}

plot for [k=0:nlines-1] data index k using 1:(valid(3) && valid(4) ? $2 : NaN):3:4 \
         with yerrorbars linecolor k + 1 pointtype 7 pointsize 0.5 notitle, \
     for [k=0:nlines-1] data index k using 1:2 with linespoints linecolor k + 1 \
         pointtype 7 pointsize 0.6 title word(ARG6, k + 1), \
     for [k=0:nlines-1] data index k using 1:($5 > 0 ? $2 : NaN) with points \
         linecolor k + 1 pointtype 6 pointsize 1.8 notitle
