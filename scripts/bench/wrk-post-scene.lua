-- wrk's request for the load scripts (scripts/bench/load-test.sh,
-- scripts/bench/throughput-ratio.sh): POST the scene file named by $SCENE as JSON.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = assert(io.open(os.getenv("SCENE"), "rb"))
wrk.body = f:read("*a")
f:close()
