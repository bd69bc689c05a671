#!/usr/bin/env bash
# `cuzk timeline`: a timeline CSV from `bench pipeline` becomes an SVG with one box per partition and stage
# (synthesis, GPU, finalize) and a summary of lanes and busy fractions; bad CSVs are refused naming the line,
# with exit 2 and no picture written.
NO_ORACLE=1 source "$(dirname "$0")/common.sh"

echo "== bench pipeline --timeline, then timeline --svg"
"$CUZK" -q bench pipeline --log2 12 --jobs 2 --partitions 3 --gw 2 --timeline "$WORK/t.csv" >/dev/null
[ "$(wc -l <"$WORK/t.csv")" -eq 7 ] || fail "expected a header and 6 partition rows"
"$CUZK" timeline "$WORK/t.csv" --svg "$WORK/t.svg" >"$WORK/summary.txt"
grep -q "6 partitions of 2 jobs" "$WORK/summary.txt" || { cat "$WORK/summary.txt"; fail "summary"; }
grep -q "GPU cpu .* lane(s); busy" "$WORK/summary.txt" || { cat "$WORK/summary.txt"; fail "no GPU lane line"; }
[ "$(grep -c '<rect x=' "$WORK/t.svg")" -eq 18 ] || fail "expected 18 boxes (6 partitions x 3 stages)"
grep -q "</svg>" "$WORK/t.svg" || fail "the SVG is not complete"

echo "== bad timelines: exit 2, the line named, no picture"
printf 'a,b\n' >"$WORK/bad1.csv"
expect_exit 2 "wrong header" -- "$CUZK" timeline "$WORK/bad1.csv" --svg "$WORK/b1.svg"
expect_err_contains "bad1.csv: line 1: not an engine timeline"
{ head -2 "$WORK/t.csv"; echo "job-1,0,c,cpu,0,1,2"; } >"$WORK/bad2.csv"
expect_exit 2 "short row" -- "$CUZK" timeline "$WORK/bad2.csv" --svg "$WORK/b2.svg"
expect_err_contains "bad2.csv: line 3: 7 fields, expected 10"
{ head -1 "$WORK/t.csv"; echo "job-1,0,c,cpu,0,5,4,6,7,8"; } >"$WORK/bad3.csv"
expect_exit 2 "out of order" -- "$CUZK" timeline "$WORK/bad3.csv" --svg "$WORK/b3.svg"
expect_err_contains "line 2: the times are not in pipeline order"
{ head -1 "$WORK/t.csv"; echo "job-1,x,c,cpu,0,1,2,3,4,5"; } >"$WORK/bad4.csv"
expect_exit 2 "not a number" -- "$CUZK" timeline "$WORK/bad4.csv" --svg "$WORK/b4.svg"
expect_err_contains "line 2: a field is not a number"
ls "$WORK"/b*.svg >/dev/null 2>&1 && fail "a picture was written for a bad timeline"
expect_exit 2 "missing file" -- "$CUZK" timeline "$WORK/none.csv"
expect_err_contains "none.csv: cannot open the timeline"
echo "timeline: all checks passed"
