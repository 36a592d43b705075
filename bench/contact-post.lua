-- wrk script: POST /api/contact as many visitors (a different X-Forwarded-For per request, so the
-- per-visitor limit stays out of the way; run the server with --trust-proxy). Without the page's
-- form token and solved challenge each is stored as spam (`token-missing`): the same insert, no e-mail.
-- Usage: wrk -t1 -c32 -d10s -s bench/contact-post.lua http://127.0.0.1:PORT
local counter = 0

request = function()
  counter = counter + 1
  local ip = string.format("10.%d.%d.%d", math.floor(counter / 65536) % 256, math.floor(counter / 256) % 256, counter % 256)
  local body = string.format(
    '{"name":"Bench %d","email":"bench@example.com","subject":"Hello","message":"A message from the benchmark.","form-name":"contact"}',
    counter)
  return wrk.format("POST", "/api/contact", {
    ["Content-Type"] = "application/json",
    ["Origin"] = wrk.scheme .. "://" .. wrk.host .. ":" .. wrk.port,
    ["Sec-Fetch-Site"] = "same-origin",
    ["X-Forwarded-For"] = ip,
  }, body)
end
