set terminal pngcairo size 900,540 noenhanced
set grid
set key top left
set xlabel 'stride'
set logscale x 2
set output 'docs/img/bandwidth_vs_stride.png'
set ylabel 'GB/s'
set title 'store bandwidth against stride'
plot 'docs/img/sweep_stride.dat' using 1:2 with linespoints title 'stored', '' using 1:3 with linespoints title 'DRAM write'
set output 'docs/img/latency_vs_stride.png'
set ylabel 'cycles'
set title 'store latency against stride'
plot 'docs/img/sweep_stride.dat' using 1:4 with linespoints title 'p50', '' using 1:5 with linespoints title 'p99'
