# How TestHandChecked's and TestIdle's figures were computed: the formulas of
# Glickman's "Example of the Glicko-2 system" evaluated independently of the
# Go code, with 40-digit arithmetic (mpmath) and Step 5 solved by bisection
# instead of the Illinois algorithm. Not run by the tests; to reproduce:
#   python3 -m pip install mpmath && python3 testdata/glicko2_reference.py
from mpmath import mp, mpf, sqrt, exp, log, pi
mp.dps = 40
Q = mpf('173.7178')
def period(r, rd, sig, opps, tau=mpf('0.5')):
    mu, phi = (mpf(r)-1500)/Q, mpf(rd)/Q
    sig = mpf(sig)
    vinv = mpf(0); gain = mpf(0)
    for (rj, rdj, s) in opps:
        muj, phij = (mpf(rj)-1500)/Q, mpf(rdj)/Q
        g = 1/sqrt(1+3*phij**2/pi**2)
        E = 1/(1+exp(-g*(mu-muj)))
        vinv += g*g*E*(1-E); gain += g*(mpf(s)-E)
    v = 1/vinv; d = v*gain
    a = log(sig**2)
    def f(x):
        return exp(x)*(d**2-phi**2-v-exp(x))/(2*(phi**2+v+exp(x))**2) - (x-a)/tau**2
    lo, hi = a-50, a+60   # f decreasing: f(lo)>0>f(hi)
    assert f(lo) > 0 and f(hi) < 0
    for _ in range(300):
        m = (lo+hi)/2
        if f(m) > 0: lo = m
        else: hi = m
    s1 = exp(lo/2)
    ps = sqrt(phi**2+s1**2)
    p1 = 1/sqrt(1/ps**2+1/v)
    m1 = mu + p1**2*gain
    return (m1*Q+1500, p1*Q, s1, v, d)
def show(name, *args, **kw):
    r = period(*args, **kw)
    print(name, "rating=%.4f rd=%.4f vol=%.7f v=%.5f delta=%.5f" % tuple(float(x) for x in r))
show("paper", 1500, 200, 0.06, [(1400,30,1),(1550,100,0),(1700,300,0)])
show("newwin", 1500, 350, 0.06, [(1500,350,1)])
show("newloss", 1500, 350, 0.06, [(1500,350,0)])
show("newdraw", 1500, 350, 0.06, [(1500,350,0.5)])
show("settledlossToNew", 1500, 60, 0.06, [(1500,350,0)])
show("favwin", 1800, 80, 0.06, [(1400,100,1)])
show("upset", 1400, 100, 0.05, [(1800,80,0)])
show("upsetwin", 1400, 100, 0.05, [(1800,80,1)])
show("paper-other", 1500, 200, 0.06, [(1400,30,1),(1550,100,0.5),(1700,300,1)])
# idle: 1500/60/0.06, a year (365 d = 182.5 periods) idle, then a draw vs 1500/60/0.06 (fresh)
phi = mpf(60)/Q; rd_idle = sqrt(phi**2 + mpf('182.5')*mpf('0.06')**2)*Q
print("idle rd after a year", float(rd_idle))
phi30 = sqrt(phi**2 + 15*mpf('0.0036'))*Q; print("idle rd after 30 d", float(phi30))
show("idlewin", 1500, rd_idle, 0.06, [(1500,60,1)])
# provisional again: periods to go from 60 to 110
p = ((mpf(110)/Q)**2 - phi**2)/mpf('0.0036'); print("periods 60->110", float(p), "days", float(2*p))
p = ((mpf(350)/Q)**2 - phi**2)/mpf('0.0036'); print("periods 60->350", float(p), "days", float(2*p), "years", float(2*p/365))
